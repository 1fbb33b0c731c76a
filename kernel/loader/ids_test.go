package loader_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/loader"
)

func TestResolveIDs(t *testing.T) {
	e := func(id, name string) loader.Entry { return loader.Entry{ID: id, Name: name} }
	tests := []struct {
		name string
		in   []loader.Entry
		want []string
	}{
		{"explicit ids stay", []loader.Entry{e("fs", "fs-local"), e("p", "policy")}, []string{"fs", "p"}},
		{"missing id is the name", []loader.Entry{e("", "fs-local"), e("", "tools")}, []string{"fs-local", "tools"}},
		{"repeats get #n", []loader.Entry{e("", "a"), e("", "a"), e("", "a")}, []string{"a", "a#2", "a#3"}},
		{"explicit ids are skipped", []loader.Entry{e("", "a"), e("a", "b"), e("", "a")}, []string{"a#2", "a", "a#3"}},
		{"explicit name#n is skipped", []loader.Entry{e("a#2", "x"), e("", "a"), e("", "a")}, []string{"a#2", "a", "a#3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := append([]loader.Entry(nil), tt.in...)
			got, err := loader.ResolveIDs(tt.in)
			require.NoError(t, err)
			ids := make([]string, len(got))
			for i, g := range got {
				ids[i] = g.ID
			}
			require.Equal(t, tt.want, ids)
			require.Equal(t, before, tt.in, "the input is not modified")
		})
	}
}
