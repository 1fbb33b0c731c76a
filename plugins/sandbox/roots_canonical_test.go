package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
}
