package main_test

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSIGTERMEndsServeAndRun: with stdin still open, SIGTERM ends both loops cleanly (exit 0).
func TestSIGTERMEndsServeAndRun(t *testing.T) {
	for _, cmdName := range []string{"serve", "run"} {
		t.Run(cmdName, func(t *testing.T) {
			cmd := exec.Command(harnessBin, cmdName, "--cwd", realTemp(t))
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			defer stdin.Close()
			stderr := &lockedBuffer{}
			cmd.Stderr = stderr
			require.NoError(t, cmd.Start())
			require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "ready: ") }, 20*time.Second, 5*time.Millisecond)
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				assert.NoError(t, err, stderr.String())
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%s did not exit on SIGTERM", cmdName)
			}
		})
	}
}
