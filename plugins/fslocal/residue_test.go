package fslocal_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A write removes the staging directories that killed processes left beside its target, and
// nothing else: not those of live processes, not those of other targets.
func TestWriteSweepsStagingResidueOfDeadProcesses(t *testing.T) {
	p, dir := newProvider(t)
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	deadPID, livePID := dead.Process.Pid, os.Getppid()
	const uuid = "0b8f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4"
	stale := filepath.Join(dir, ".doc.txt."+strconv.Itoa(deadPID)+"."+uuid+".tmpdir")
	live := filepath.Join(dir, ".doc.txt."+strconv.Itoa(livePID)+"."+uuid+".tmpdir")
	other := filepath.Join(dir, ".other.txt."+strconv.Itoa(deadPID)+"."+uuid+".tmpdir")
	for _, d := range []string{stale, live, other} {
		require.NoError(t, os.Mkdir(d, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(d, "x.tmp"), []byte("partial"), 0o600))
	}

	_, err := p.WriteText(context.Background(), resolve(t, p, "doc.txt"), "new", nil, nil)
	require.NoError(t, err)

	assert.NoDirExists(t, stale, "residue of a dead writer of the same target is removed")
	assert.DirExists(t, live, "a live process's staging directory is left alone")
	assert.DirExists(t, other, "another target's residue waits for a write to that target")
	got, err := os.ReadFile(filepath.Join(dir, "doc.txt"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}
