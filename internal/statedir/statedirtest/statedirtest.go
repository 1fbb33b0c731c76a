// Package statedirtest gives a test binary a private state directory, so that what the code under
// test keeps there (fs-local's staging registry, spill files) never reaches the user's own.
package statedirtest

import (
	"fmt"
	"os"
)

// markerEnv names the private directory a test process made; its child processes inherit it
// (and $XDG_STATE_HOME with it) and keep using the same directory.
const markerEnv = "CORDON_TEST_STATE_HOME"

// Private points $XDG_STATE_HOME at a fresh temporary directory, unless this process is the child
// of a test process that already did, and returns the function that removes what it made. Call
// it first in TestMain.
func Private() (cleanup func()) {
	if os.Getenv(markerEnv) != "" {
		return func() {}
	}
	dir, err := os.MkdirTemp("", "cordon-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "statedirtest:", err)
		os.Exit(2)
	}
	for _, kv := range [][2]string{{"XDG_STATE_HOME", dir}, {markerEnv, dir}} {
		if err := os.Setenv(kv[0], kv[1]); err != nil {
			fmt.Fprintln(os.Stderr, "statedirtest:", err)
			os.Exit(2)
		}
	}
	return func() { _ = os.RemoveAll(dir) }
}

// Run is a TestMain body: it runs m's tests with a Private state directory and exits.
func Run(m interface{ Run() int }) {
	cleanup := Private()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
