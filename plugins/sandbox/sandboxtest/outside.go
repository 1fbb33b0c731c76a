package sandboxtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// OutsideDir returns a fresh directory, symlinks resolved, that lies outside every writable root of
// workspace-write whatever the workspace (the temp roots /tmp and TempDir included): it is made
// under $HOME and removed when the test ends. The test is skipped when $HOME itself lies under a
// temp root.
func OutsideDir(tb testing.TB) string {
	tb.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := os.MkdirTemp(home, ".cordon-outside-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		tb.Fatal(err)
	}
	roots, _ := sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite})
	for _, r := range roots {
		if ok, _ := sandbox.IsPathUnder(dir, r); ok {
			tb.Skipf("$HOME (%s) lies under the temp root %s: no directory outside every writable root", dir, r)
		}
	}
	return dir
}
