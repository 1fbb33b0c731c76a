package lsp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/lsp"
	"github.com/cordon-dev/cordon/internal/lsp/lsptest"
	"github.com/cordon-dev/cordon/internal/proc"
)

var fakels string

// TestMain builds the fake language server once (lsptest.Main).
func TestMain(m *testing.M) { lsptest.Main(m, &fakels) }

type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(s string) { l.mu.Lock(); l.l = append(l.l, s); l.mu.Unlock() }
func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.l...)
}

func start(t *testing.T, env ...string) (*lsp.Client, *lines) {
	return startWith(t, lsp.Options{}, env...)
}

func startWith(t *testing.T, opts lsp.Options, env ...string) (*lsp.Client, *lines) {
	t.Helper()
	var stderr lines
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts.Command, opts.Root, opts.Env, opts.Stderr = fakels, t.TempDir(), append(os.Environ(), env...), stderr.add
	c, err := lsp.Start(ctx, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c, &stderr
}

func wait(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func messages(ds []lsp.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}

func TestClientPushedDiagnosticsOfAVersion(t *testing.T) {
	c, stderr := start(t)
	assert.False(t, c.Pull())
	uri := lsp.URI("/w/a.txt")
	seq := c.Seq()
	v, err := c.Open(uri, "plaintext", "ok\nERROR: one\n")
	require.NoError(t, err)
	assert.Equal(t, 1, v)
	ds, err := c.Diagnostics(wait(t), uri, v, seq)
	require.NoError(t, err)
	assert.Equal(t, []string{"one"}, messages(ds))
	assert.Equal(t, 1, ds[0].Range.Start.Line)
	assert.Equal(t, lsp.SeverityError, ds[0].Severity)

	seq = c.Seq()
	v, err = c.Change(uri, "WARN: two\nok\n")
	require.NoError(t, err)
	assert.Equal(t, 2, v)
	ds, err = c.Diagnostics(wait(t), uri, v, seq)
	require.NoError(t, err)
	assert.Equal(t, []string{"two"}, messages(ds))
	assert.Contains(t, stderr.all(), "fakels: started", "the server's standard error reaches the caller")
}

// TestClientVersionedWaitsForItsVersion: a server that names its versions (Options.Versioned) may
// first push, with no version, a report on the file as it is on disk (gopls does, for a package it
// loaded): that push does not answer for the version opened, whose text differs.
func TestClientVersionedWaitsForItsVersion(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(path, []byte("ERROR: on disk\n"), 0o644))
	for range 20 {
		c, _ := startWith(t, lsp.Options{Versioned: true}, "FAKELS_DISK=1", "FAKELS_DELAY=5ms")
		uri := lsp.URI(path)
		seq := c.Seq()
		v, err := c.Open(uri, "plaintext", "ERROR: as opened\n")
		require.NoError(t, err)
		ds, err := c.Diagnostics(wait(t), uri, v, seq)
		require.NoError(t, err)
		require.Equal(t, []string{"as opened"}, messages(ds))
	}
}

func TestClientPulledDiagnostics(t *testing.T) {
	c, _ := start(t, "FAKELS_PULL=1")
	assert.True(t, c.Pull())
	uri := lsp.URI("/w/a.txt")
	v, err := c.Open(uri, "plaintext", "ERROR: pulled\n")
	require.NoError(t, err)
	ds, err := c.Diagnostics(wait(t), uri, v, c.Seq())
	require.NoError(t, err)
	assert.Equal(t, []string{"pulled"}, messages(ds))
}

// The wait is the caller's: a server slower than ctx yields ctx's error, and a later wait gets
// the late push.
func TestClientWaitIsBoundedByTheCaller(t *testing.T) {
	c, _ := start(t, "FAKELS_DELAY=500ms")
	uri := lsp.URI("/w/a.txt")
	seq := c.Seq()
	v, err := c.Open(uri, "plaintext", "ERROR: late\n")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Diagnostics(ctx, uri, v, seq)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	ds, err := c.Diagnostics(wait(t), uri, v, seq)
	require.NoError(t, err)
	assert.Equal(t, []string{"late"}, messages(ds))
}

func TestClientStartFailure(t *testing.T) {
	_, err := lsp.Start(wait(t), lsp.Options{Command: fakels, Root: t.TempDir(), Env: append(os.Environ(), "FAKELS_START_FAIL=1")})
	require.Error(t, err)
	_, err = lsp.Start(wait(t), lsp.Options{Command: filepath.Join(t.TempDir(), "missing"), Root: t.TempDir()})
	require.Error(t, err)
}

func TestClientCrash(t *testing.T) {
	c, _ := start(t, "FAKELS_CRASH=change")
	uri := lsp.URI("/w/a.txt")
	v, err := c.Open(uri, "plaintext", "x\n")
	require.NoError(t, err)
	_, err = c.Diagnostics(wait(t), uri, v, 0)
	require.NoError(t, err)
	seq := c.Seq()
	v, _ = c.Change(uri, "y\n")
	_, err = c.Diagnostics(wait(t), uri, v, seq)
	require.True(t, errors.Is(err, lsp.ErrExited), "%v", err)
	<-c.Exited()
	require.Error(t, c.ExitError())
}

func TestClientCloseEndsTheServer(t *testing.T) {
	c, _ := start(t)
	require.NoError(t, c.Close(wait(t)))
	<-c.Exited()
	assert.NoError(t, c.ExitError(), "it exited on the exit notification")
	assert.False(t, proc.Alive(c.PID()))
	_, err := c.Change(lsp.URI("/w/none"), "")
	assert.Error(t, err)
}

// A push whose URI is spelled differently (vscode-uri escapes "=") is the document's all the same.
func TestClientPushedURIsAreCanonical(t *testing.T) {
	c, _ := start(t, "FAKELS_ESCAPE=1")
	uri := lsp.URI("/w/warm=true/a.txt")
	v, err := c.Open(uri, "plaintext", "ERROR: escaped\n")
	require.NoError(t, err)
	ds, err := c.Diagnostics(wait(t), uri, v, c.Seq())
	require.NoError(t, err)
	assert.Equal(t, []string{"escaped"}, messages(ds))
}

// What a client keeps of pushes is bounded: diagnostics per push, and documents (an open one
// keeps its place; one that is not open makes room; a push that finds none is dropped).
func TestClientPushBounds(t *testing.T) {
	c, _ := startWith(t, lsp.Options{MaxDiagnostics: 2, MaxDocuments: 2}, "FAKELS_SIBLING=1")
	a, b := lsp.URI("/w/a"), lsp.URI("/w/b")
	v, err := c.Open(a, "plaintext", "ERROR: 1\nERROR: 2\nERROR: 3\n")
	require.NoError(t, err)
	ds, err := c.Diagnostics(wait(t), a, v, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "2"}, messages(ds))
	require.Eventually(t, func() bool { return len(c.Pushed(0)) == 2 }, 5*time.Second, 10*time.Millisecond, "a and a-sibling")

	seq := c.Seq()
	v, err = c.Open(b, "plaintext", "ERROR: x\n")
	require.NoError(t, err)
	ds, err = c.Diagnostics(wait(t), b, v, seq)
	require.NoError(t, err, "a-sibling, not open, made room for b")
	assert.Equal(t, []string{"x"}, messages(ds))
	time.Sleep(100 * time.Millisecond) // b-sibling's push, which finds no room
	pushed := c.Pushed(0)
	assert.Len(t, pushed, 2)
	assert.Contains(t, pushed, a)
	assert.Contains(t, pushed, b)
}
