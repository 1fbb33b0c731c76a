package main_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reader of stdout that goes away (EPIPE) ends serve and run cleanly: exit status 0, the plugin
// tree disposed (fx's OnStop hooks run), no panic, no hang. Before the fix the process was killed
// by SIGPIPE on its first write, skipping the shutdown (async listeners such as an audit log were
// not drained).
func TestClosedStdoutEndsCleanly(t *testing.T) {
	for _, tc := range []struct{ cmd, line string }{
		{"run", `{"id":1,"tool":"read","args":{"file_path":"x.txt"}}`},
		{"serve", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			dir := realTemp(t)
			writeFile(t, dir+"/x.txt", "x\n")
			cmd := exec.Command(harnessBin, tc.cmd, "--cwd", dir, "--log-level", "debug")
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			defer stdin.Close()
			r, w, err := os.Pipe()
			require.NoError(t, err)
			cmd.Stdout = w
			stderr := &lockedBuffer{}
			cmd.Stderr = stderr
			require.NoError(t, cmd.Start())
			require.NoError(t, w.Close())
			require.NoError(t, r.Close()) // nobody reads stdout any more
			require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "ready: ") }, 20*time.Second, 5*time.Millisecond)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			for i := 0; i < 3; i++ { // the first write fails; later lines may find stdin closed
				if _, err := io.WriteString(stdin, tc.line+"\n"); err != nil {
					break
				}
			}
			select {
			case err := <-done:
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					t.Fatalf("%s: %v (signaled: %v)\n%s", tc.cmd, err, ee.ProcessState.String(), stderr.String())
				}
				require.NoError(t, err)
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%s did not end after its stdout closed", tc.cmd)
			}
			assert.NotContains(t, stderr.String(), "panic")
			assert.Contains(t, stderr.String(), "OnStop hook executed", "the plugin tree was disposed")
		})
	}
}

// `harness tools | head -1` and the like: a printing command whose stdout reader went away ends
// quietly with status 0, as it did when SIGPIPE killed it, not with a "broken pipe" error.
func TestClosedStdoutPrintingCommands(t *testing.T) {
	for _, cmdName := range []string{"tools", "plugins", "config"} {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		require.NoError(t, r.Close())
		cmd := exec.Command(harnessBin, cmdName, "--cwd", realTemp(t), "--log-level", "error")
		cmd.Stdout = w
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		err = cmd.Run()
		_ = w.Close()
		assert.NoError(t, err, "%s: %s", cmdName, stderr.String())
		assert.Empty(t, stderr.String(), cmdName)
	}
}
