package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

type catalog struct{ def string }

func (c catalog) DefaultModel() string { return c.def }
func (c catalog) ResolveModel(_ context.Context, id string) (tools.ModelInfo, error) {
	return tools.ModelInfo{ID: id}, nil
}

func TestModelFor(t *testing.T) {
	named := tools.NewSession("a")
	named.SetHeader(tools.Header{Model: "m1"})
	unnamed := tools.NewSession("b")
	cases := []struct {
		name string
		exec *tools.Exec
		cat  tools.ModelCatalog
		want string
	}{
		{"session model wins", &tools.Exec{Session: named}, catalog{"d"}, "m1"},
		{"catalog default", &tools.Exec{Session: unnamed}, catalog{"d"}, "d"},
		{"no catalog", &tools.Exec{Session: unnamed}, nil, ""},
		{"no session", &tools.Exec{}, catalog{"d"}, ""},
		{"nil exec", nil, catalog{"d"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tools.ModelFor(tc.exec, tc.cat))
		})
	}
}

func TestModelInfoAcceptsImages(t *testing.T) {
	require.True(t, tools.ModelInfo{InputModalities: []string{"text", "image"}}.AcceptsImages())
	require.False(t, tools.ModelInfo{InputModalities: []string{"text"}}.AcceptsImages())
	require.False(t, tools.ModelInfo{}.AcceptsImages(), "unknown capability is not image input")
}
