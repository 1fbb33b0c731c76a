package app_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain keeps the default composition's attachment store (under the user's state directory) in a
// temporary directory for the whole run.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "harness-app-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
