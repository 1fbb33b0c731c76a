//go:build linux

package mcpstdio_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

func nonblocking(t *testing.T, fd int) bool {
	t.Helper()
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	require.NoError(t, err)
	return fl&unix.O_NONBLOCK != 0
}

// An input on a blocking pipe or socket (what a client hands a server it starts) is read, and a
// Close while a read waits returns at once, ending the reading goroutine (goleak checks it); the
// caller's description is blocking afterwards (a pipe's never sees O_NONBLOCK: it is read through
// a description of its own).
func TestABlockingPipeOrSocketIsReadAndClosed(t *testing.T) {
	for _, kind := range []string{"pipe", "socket"} {
		t.Run(kind, func(t *testing.T) {
			leaks := goleak.IgnoreCurrent()
			var fds [2]int
			if kind == "pipe" {
				require.NoError(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
			} else {
				var err error
				fds, err = unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
				require.NoError(t, err)
			}
			in, peer := os.NewFile(uintptr(fds[0]), "in"), os.NewFile(uintptr(fds[1]), "peer")
			defer peer.Close()
			probe, err := unix.Dup(fds[0]) // the same description as in, open after in is closed
			require.NoError(t, err)
			defer unix.Close(probe)
			require.False(t, nonblocking(t, probe))

			tr := &mcpstdio.Transport{In: in, Out: discard{}}
			conn, err := tr.Connect(context.Background())
			require.NoError(t, err)
			_, err = peer.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
			require.NoError(t, err)
			msg, err := conn.Read(context.Background())
			require.NoError(t, err)
			require.Equal(t, "notifications/initialized", msg.(*jsonrpc.Request).Method)
			if kind == "pipe" {
				assert.False(t, nonblocking(t, probe), "the caller's pipe description stays blocking")
			}

			closed := make(chan error, 1)
			go func() { closed <- conn.Close() }() // a read is waiting: nothing more was written
			select {
			case <-closed:
			case <-time.After(5 * time.Second):
				t.Fatal("Close did not return while a read waited")
			}
			assert.False(t, nonblocking(t, probe), "the caller's description is blocking again")
			goleak.VerifyNone(t, leaks) // the peer is still open: only the close can have ended the read
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
