//lint:file-ignore SA1019 the tests drive the roots of the older protocols, deprecated from 2026-07-28 on

package mcphost_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// rootsDirs are wd (the working directory: the policy's configured root) and a, b and c, each a
// directory holding f.txt that names it, plus file.txt (a regular file).
type rootsDirs struct{ wd, a, b, c, file string }

func newRootsDirs(t *testing.T) rootsDirs {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	d := rootsDirs{wd: filepath.Join(base, "wd"), a: filepath.Join(base, "a"), b: filepath.Join(base, "b"), c: filepath.Join(base, "c"), file: filepath.Join(base, "file.txt")}
	for _, dir := range []string{d.wd, d.a, d.b, d.c} {
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte("in "+filepath.Base(dir)+"\n"), 0o644))
	}
	require.NoError(t, os.WriteFile(d.file, []byte("x\n"), 0o644))
	return d
}

// serveRoots serves the default profile's confinement (workspace-write, reads: roots, no temp
// roots; the configured root wd) in process with cr, and connects a Go SDK client declaring roots.
func serveRoots(t *testing.T, d rootsDirs, cr mcphost.ClientRoots, roots ...*mcp.Root) (*mcp.Client, *mcp.ClientSession, *observer.ObservedLogs) {
	t.Helper()
	return serveRootsAt(t, "2025-11-25", d, cr, roots...)
}

// serveRootsAt is serveRoots with the client negotiating protocol version.
func serveRootsAt(t *testing.T, version string, d rootsDirs, cr mcphost.ClientRoots, roots ...*mcp.Root) (*mcp.Client, *mcp.ClientSession, *observer.ObservedLogs) {
	t.Helper()
	no := false
	root := kerneltest.NewRoot(t)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, tools.Plugin, nil))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, sandboxpolicy.Plugin, sandboxpolicy.Config{
		Mode: sandbox.WorkspaceWrite, WorkspaceRoot: d.wd, Reads: sandboxpolicy.ReadsRoots, TempRoots: &no}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, fssandbox.Plugin, &fssandbox.Config{Cwd: d.wd, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}))
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, root, toolfs.Plugin, nil))
	core, logs := observer.New(zapcore.InfoLevel)
	cr.Log = zap.New(core)
	h, err := mcphost.New(root, mcphost.Config{Version: "test", ClientRoots: cr})
	require.NoError(t, err)
	t.Cleanup(h.Close)
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx, st) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "roots-client", Version: "1"}, nil)
	c.AddRoots(roots...)
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		<-done
	})
	return c, cs, logs
}

func fileRoot(dir string) *mcp.Root { return &mcp.Root{URI: "file://" + dir, Name: filepath.Base(dir)} }

// callText calls tool with args and returns its text and whether it failed.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// requireServed fails unless reading p succeeds with want in its text.
func requireServed(t *testing.T, cs *mcp.ClientSession, p, want string) {
	t.Helper()
	text, failed := callText(t, cs, "read", map[string]any{"file_path": p})
	require.False(t, failed, "read %s: %s", p, text)
	require.Contains(t, text, want)
}

// requireRefused fails unless reading p is refused as outside the roots.
func requireRefused(t *testing.T, cs *mcp.ClientSession, p string) {
	t.Helper()
	text, failed := callText(t, cs, "read", map[string]any{"file_path": p})
	require.True(t, failed, "read %s: %s", p, text)
	require.Contains(t, text, "it is outside the workspace roots", p)
}

// docs/host.md "Roots from the client": without --cwd the workspace is the client's roots, the
// first as the working directory; a notifications/roots/list_changed moves it. Files inside each
// set are served (read, and written), everything else is refused, the working directory included.
func TestClientRootsAreTheWorkspace(t *testing.T) {
	d := newRootsDirs(t)
	c, cs, logs := serveRoots(t, d, mcphost.ClientRoots{Follow: true}, fileRoot(d.a), fileRoot(d.b))

	requireServed(t, cs, "f.txt", "in a") // relative paths resolve in the first root
	requireServed(t, cs, filepath.Join(d.b, "f.txt"), "in b")
	requireRefused(t, cs, filepath.Join(d.wd, "f.txt"))
	requireRefused(t, cs, filepath.Join(d.c, "f.txt"))
	text, failed := callText(t, cs, "write", map[string]any{"file_path": filepath.Join(d.b, "new.txt"), "content": "n\n"})
	require.False(t, failed, text)
	_, failed = callText(t, cs, "write", map[string]any{"file_path": filepath.Join(d.c, "new.txt"), "content": "n\n"})
	require.True(t, failed)
	require.NoFileExists(t, filepath.Join(d.c, "new.txt"))

	// The client now names c alone.
	c.RemoveRoots("file://"+d.a, "file://"+d.b)
	c.AddRoots(fileRoot(d.c))
	require.Eventually(t, func() bool {
		_, failed := callText(t, cs, "read", map[string]any{"file_path": filepath.Join(d.c, "f.txt")})
		return !failed
	}, 5*time.Second, 20*time.Millisecond)
	requireServed(t, cs, "f.txt", "in c")
	requireRefused(t, cs, filepath.Join(d.a, "f.txt"))
	requireRefused(t, cs, filepath.Join(d.b, "f.txt"))
	requireRefused(t, cs, filepath.Join(d.wd, "f.txt"))
	require.NotZero(t, logs.FilterMessage("workspace roots from the client").Len())
}

// docs/host.md "Roots from the client": only file:// URIs of directories are taken, each refused one
// is logged; with none usable the workspace stays the working directory.
func TestClientRootsRefused(t *testing.T) {
	d := newRootsDirs(t)
	_, cs, logs := serveRoots(t, d, mcphost.ClientRoots{Follow: true},
		&mcp.Root{URI: "https://example.com/" + d.a}, fileRoot(d.file), fileRoot(filepath.Join(d.wd, "missing")), &mcp.Root{URI: "file://otherhost" + d.a})
	requireServed(t, cs, "f.txt", "in wd")
	requireRefused(t, cs, filepath.Join(d.a, "f.txt"))
	var warned []string
	for _, e := range logs.FilterMessageSnippet("ignoring a client root").All() {
		warned = append(warned, e.Message)
	}
	const notFile = "ignoring a client root: not a file:// URI naming an absolute path on this machine"
	require.ElementsMatch(t, []string{notFile, notFile, "ignoring a client root: not a directory",
		"ignoring a client root: it cannot be examined: stat " + filepath.Join(d.wd, "missing") + ": no such file or directory"}, warned)
	require.Equal(t, 1, logs.FilterMessage("no client root is usable: the workspace stays the working directory").Len())
}

// docs/host.md "Roots from the client": the roots named on the command line (--root) bound the
// client's: a client root beneath one is taken, one outside is ignored with a warning; the file
// system root is refused without --allow-broad-root.
func TestClientRootsWithinTheCommandLines(t *testing.T) {
	d := newRootsDirs(t)
	sub := filepath.Join(d.a, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sub, "g.txt"), []byte("in sub\n"), 0o644))
	_, cs, logs := serveRoots(t, d, mcphost.ClientRoots{Follow: true, Within: []string{d.a}}, fileRoot(d.b), fileRoot("/"), fileRoot(sub))
	requireServed(t, cs, "g.txt", "in sub")
	requireRefused(t, cs, filepath.Join(d.b, "f.txt"))
	requireRefused(t, cs, "/etc/hostname")
	require.Equal(t, 1, logs.FilterMessage("ignoring a client root: it is outside the roots named on the command line (--root)").Len())
	require.Equal(t, 1, logs.FilterMessage("ignoring a client root: it is the file system root (pass --allow-broad-root to accept it)").Len())
}

// docs/host.md "Roots from the client": a host not told to follow them (serve --cwd) never asks.
func TestClientRootsNotFollowed(t *testing.T) {
	d := newRootsDirs(t)
	_, cs, logs := serveRoots(t, d, mcphost.ClientRoots{}, fileRoot(d.a))
	requireServed(t, cs, "f.txt", "in wd")
	requireRefused(t, cs, filepath.Join(d.a, "f.txt"))
	require.Zero(t, logs.Len())
}

// docs/host.md "Roots from the client": under 2026-07-28 a server sends the client no request of its
// own (roots are deprecated there): the workspace stays the working directory, and nothing is asked.
func TestClientRootsNotAskedUnderMultiRoundTrip(t *testing.T) {
	d := newRootsDirs(t)
	_, cs, logs := serveRootsAt(t, "2026-07-28", d, mcphost.ClientRoots{Follow: true}, fileRoot(d.a))
	requireServed(t, cs, "f.txt", "in wd")
	requireRefused(t, cs, filepath.Join(d.a, "f.txt"))
	require.Zero(t, logs.Len())
}
