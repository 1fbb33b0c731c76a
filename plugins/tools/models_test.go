package tools_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

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
		{"session model wins", &tools.Exec{Session: named}, toolstest.Catalog{Default: "d"}, "m1"},
		{"catalog default", &tools.Exec{Session: unnamed}, toolstest.Catalog{Default: "d"}, "d"},
		{"no catalog", &tools.Exec{Session: unnamed}, nil, ""},
		{"no session", &tools.Exec{}, toolstest.Catalog{Default: "d"}, ""},
		{"nil exec", nil, toolstest.Catalog{Default: "d"}, ""},
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
