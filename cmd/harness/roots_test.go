//lint:file-ignore SA1019 the tests drive the roots of the older protocols, deprecated from 2026-07-28 on

package main_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// serveWithRoots starts `harness serve args...` in the working directory wd and connects a Go SDK
// client (2025-11-25) that declares roots.
func serveWithRoots(t *testing.T, wd string, roots []string, args ...string) (*mcp.Client, *mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(harnessBin, append([]string{"serve"}, args...)...)
	cmd.Dir = wd
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "roots-test", Version: "0"}, nil)
	for _, r := range roots {
		c.AddRoots(&mcp.Root{URI: "file://" + r})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err, stderr.String())
	t.Cleanup(func() { _ = cs.Close() })
	return c, cs, stderr
}

// rootsTree is wd, a, b under a fresh directory, each holding f.txt that names it.
func rootsTree(t *testing.T) (wd, a, b string) {
	t.Helper()
	base := realTemp(t)
	wd, a, b = filepath.Join(base, "wd"), filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{wd, a, b} {
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "f.txt"), []byte("in "+filepath.Base(d)+"\n"), 0o644))
	}
	return wd, a, b
}

func requireReadServed(t *testing.T, cs *mcp.ClientSession, p, want string) {
	t.Helper()
	res := call(t, cs, "read", map[string]any{"file_path": p})
	require.False(t, res.IsError, "read %s: %s", p, text(res))
	require.Contains(t, text(res), want)
}

func requireReadRefused(t *testing.T, cs *mcp.ClientSession, p string) {
	t.Helper()
	res := call(t, cs, "read", map[string]any{"file_path": p})
	require.True(t, res.IsError, "read %s: %s", p, text(res))
	require.Contains(t, text(res), "it is outside the workspace roots")
}

// docs/host.md "Roots from the client": `harness serve` without --cwd takes its workspace from the
// client's roots and follows notifications/roots/list_changed; the files inside each set are
// served, everything else (the working directory it was started in included) is refused.
func TestServeTakesTheClientsRoots(t *testing.T) {
	wd, a, b := rootsTree(t)
	c, cs, stderr := serveWithRoots(t, wd, []string{a})
	requireReadServed(t, cs, "f.txt", "in a")
	requireReadRefused(t, cs, filepath.Join(wd, "f.txt"))
	requireReadRefused(t, cs, filepath.Join(b, "f.txt"))
	res := call(t, cs, "write", map[string]any{"file_path": "new.txt", "content": "n\n"})
	require.False(t, res.IsError, text(res))
	require.FileExists(t, filepath.Join(a, "new.txt"))

	c.AddRoots(&mcp.Root{URI: "file://" + b})
	c.RemoveRoots("file://" + a)
	require.Eventually(t, func() bool {
		res := call(t, cs, "read", map[string]any{"file_path": filepath.Join(a, "f.txt")})
		return res.IsError
	}, 10*time.Second, 50*time.Millisecond, stderr.String())
	requireReadServed(t, cs, "f.txt", "in b")
	requireReadRefused(t, cs, filepath.Join(wd, "f.txt"))
	res = call(t, cs, "glob", map[string]any{"pattern": "*.txt", "path": a})
	require.True(t, res.IsError, text(res))
	require.True(t, strings.Contains(stderr.String(), "workspace roots from the client"), stderr.String())
}

// docs/host.md "Roots from the client": an explicit --cwd wins; the client's roots are not taken.
func TestServeCwdWinsOverTheClientsRoots(t *testing.T) {
	wd, a, _ := rootsTree(t)
	_, cs, stderr := serveWithRoots(t, a, []string{a}, "--cwd", wd)
	requireReadServed(t, cs, "f.txt", "in wd")
	requireReadRefused(t, cs, filepath.Join(a, "f.txt"))
	require.NotContains(t, stderr.String(), "workspace roots from the client")
}

// docs/http.md "Sessions": over HTTP a session's workspace is its client's roots too, asked on the
// client's standalone GET stream.
func TestServeHTTPTakesTheClientsRoots(t *testing.T) {
	wd, a, b := rootsTree(t)
	cmd := exec.Command(harnessBin, "serve", "--http", "127.0.0.1:0")
	cmd.Dir = wd
	s := startHTTPServeCmd(t, cmd)
	c := mcp.NewClient(&mcp.Implementation{Name: "roots-http", Version: "0"}, nil)
	c.AddRoots(&mcp.Root{URI: "file://" + a})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err, s.stderr.String())
	t.Cleanup(func() { _ = cs.Close() })
	requireReadServed(t, cs, "f.txt", "in a")
	requireReadRefused(t, cs, filepath.Join(wd, "f.txt"))
	requireReadRefused(t, cs, filepath.Join(b, "f.txt"))
}
