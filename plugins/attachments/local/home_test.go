package local

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeEnv replaces the environment seen by resolveHome.
func fakeEnv(t *testing.T, env map[string]string) {
	t.Helper()
	orig := envLookup
	envLookup = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	t.Cleanup(func() { envLookup = orig })
}

// docs/attachments.md "Configuration" (home, $CORDON_HOME, "~" expansion,
// explicit "") with the Cordon default location: the user's state directory.
func TestResolveHome(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	str := func(s string) *string { return &s }
	cases := []struct {
		name     string
		env      map[string]string
		explicit *string
		want     string
	}{
		{"default under XDG_STATE_HOME", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/state"}, nil, "/state/cordon"},
		{"default ~/.local/state", map[string]string{"HOME": "/home/u"}, nil, "/home/u/.local/state/cordon"},
		{"relative XDG_STATE_HOME ignored", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "rel"}, nil, "/home/u/.local/state/cordon"},
		{"CORDON_HOME", map[string]string{"HOME": "/home/u", "CORDON_HOME": "/toh", "XDG_STATE_HOME": "/state"}, nil, "/toh"},
		{"blank CORDON_HOME is unset", map[string]string{"HOME": "/home/u", "CORDON_HOME": " \t"}, nil, "/home/u/.local/state/cordon"},
		{"CORDON_HOME with ~", map[string]string{"HOME": "/home/u", "CORDON_HOME": "~/x"}, nil, "/home/u/x"},
		{"explicit wins", map[string]string{"HOME": "/home/u", "CORDON_HOME": "/toh"}, str("/explicit"), "/explicit"},
		{"explicit ~", map[string]string{"HOME": "/home/u"}, str("~"), "/home/u"},
		{`explicit ~\`, map[string]string{"HOME": "/home/u"}, str(`~\y`), "/home/u/y"},
		{"explicit ~user is not expanded", map[string]string{"HOME": "/home/u"}, str("~bob"), filepath.Join(wd, "~bob")},
		{"explicit relative", map[string]string{"HOME": "/home/u"}, str("rel/h"), filepath.Join(wd, "rel/h")},
		{"explicit empty is the working directory", map[string]string{"HOME": "/home/u", "CORDON_HOME": "/toh"}, str(""), wd},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeEnv(t, c.env)
			got, err := resolveHome(c.explicit)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	fakeEnv(t, map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/state"})
	cfg := DefaultConfig()
	s, err := New(cfg, nil)
	require.NoError(t, err)
	assert.Equal(t, "/state/cordon/attachments/v1", s.Root())
}
