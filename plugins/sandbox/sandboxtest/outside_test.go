package sandboxtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

func TestOutsideDirIsOutsideEveryWritableRoot(t *testing.T) {
	dir := sandboxtest.OutsideDir(t)
	assert.DirExists(t, dir)
	roots, _ := sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite})
	require.NotEmpty(t, roots)
	for _, r := range roots {
		ok, err := sandbox.IsPathUnder(dir, r)
		require.NoError(t, err)
		assert.False(t, ok, "%s is under %s", dir, r)
	}
	assert.NotEqual(t, dir, sandboxtest.OutsideDir(t), "each call is a fresh directory")
}
