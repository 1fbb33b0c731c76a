package hosttest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// RunInStateDir runs m with XDG_STATE_HOME in a new temporary directory named from prefix (the
// stock composition keeps its attachment store and fs-history's store under it), removes the
// directory, and returns m's exit code, for a TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(hosttest.RunInStateDir(m, "mcphost-state-")) }
func RunInStateDir(m *testing.M, prefix string) int {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}
