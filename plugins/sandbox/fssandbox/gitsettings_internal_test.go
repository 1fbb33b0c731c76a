package fssandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandPaths(t *testing.T) {
	for in, want := range map[string][]string{
		"vim":                                 nil,
		"./bin/fmt --check":                   {"./bin/fmt"},
		`!f() { "./tools/my x.sh" "$@"; }; f`: {"./tools/my x.sh", "./tools/my"},
		"sh -c 'scripts/a.sh; echo'":          {"scripts/a.sh; echo", "scripts/a.sh"},
		"env FOO=./cfg/x run":                 {"FOO=./cfg/x", "./cfg/x"},
		"a|b/c>d/e":                           {"b/c", "d/e"},
		`x\ y/z`:                              {"x y/z", "y/z"},
	} {
		assert.Equal(t, want, commandPaths(in), "%q", in)
	}
}

func TestExpandPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{".husky", "/w/.husky", true},
		{"/abs/hooks", "/abs/hooks", true},
		{"~/hooks", "/h/hooks", true},
		{"~", "/h", true},
		{"$HOME/x", "/h/x", true},
		{"~other/x", "", false},
		{"", "", false},
	} {
		got, ok := expandPath(tc.in, "/w", "/h")
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}
