//go:build linux

package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo-terminal's two ends.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { _ = m.Close() })
	require.NoError(t, unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return m, s
}

// serve run by hand in a terminal says, after its ready line, that it waits for an MCP client on
// standard input and how to try it.
func TestServeInATerminalSaysItWaitsForAClient(t *testing.T) {
	_, tty := openPTY(t)
	ws := realTemp(t)
	cmd := exec.Command(harnessBin, "serve", "--cwd", ws)
	cmd.Stdin = tty
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "waiting for an MCP client") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), stderr.String())
	out := stderr.String()
	assert.Contains(t, out, "waiting for an MCP client on standard input: an MCP client starts this command itself ('harness setup CLIENT' writes its configuration); to try it by hand, paste {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"")
	assert.Less(t, strings.Index(out, "ready: serving MCP on stdio"), strings.Index(out, "waiting for an MCP client"))
}
