package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

func TestCanonicalPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	real := filepath.Join(dir, "a", "b")
	require.NoError(t, os.MkdirAll(real, 0o755))
	require.NoError(t, os.Symlink(real, filepath.Join(dir, "link")))

	assert.Equal(t, real, sandbox.CanonicalPath(filepath.Join(dir, "link")))
	// link/.. is the physical parent of the link's target, not the lexical parent.
	assert.Equal(t, filepath.Join(dir, "a"), sandbox.CanonicalPath(filepath.Join(dir, "link")+"/.."))
	missing := filepath.Join(dir, "nope", "x")
	assert.Equal(t, missing, sandbox.CanonicalPath(missing), "a missing path is returned unchanged")
	assert.Equal(t, "rel/missing", sandbox.CanonicalPath("rel/missing"))
	assert.Equal(t, real, sandbox.CanonicalPath(real+"/./"), "a path through no link, in one call, is cleaned")
	assert.Equal(t, filepath.Join(dir, "a"), sandbox.CanonicalPath(real+"/.."))
}

// TestCanonicalPathAgreesWithTheWalk: the one-call answer for a path through no link is the
// component walk's (openat2 disabled), and a link on the way still takes the walk.
func TestCanonicalPathAgreesWithTheWalk(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	real := filepath.Join(dir, "a", "b", "c")
	require.NoError(t, os.MkdirAll(real, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "link")))
	paths := []string{real, real + "/", real + "/../c", filepath.Join(dir, "link", "b", "c"), filepath.Join(dir, "link", "b", ".."), real + "/missing"}
	var fast []string
	for _, p := range paths {
		fast = append(fast, sandbox.CanonicalPath(p))
	}
	assert.Equal(t, real, fast[3], "through the link")
	t.Cleanup(beneath.Disable())
	for i, p := range paths {
		assert.Equal(t, sandbox.CanonicalPath(p), fast[i], p)
	}
}
