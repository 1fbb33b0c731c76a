package mcphost

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"go.uber.org/goleak"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools/engine"

	"github.com/cordon-dev/cordon/kernel/loader"
)

// sandboxedHost composes the embedded sandboxed profile with the workspace ws.
func sandboxedHost(t *testing.T, ws string) (*host, *engine.Tools) {
	t.Helper()
	h := composeProfile(t, "sandboxed", ws, nil)
	eng, err := newToolsEngine(h.k)
	require.NoError(t, err)
	return h, eng
}

// rawClient is a hand-written MCP client over pipes to one served connection, so a test can answer
// (or not answer) the server's requests however it likes, and disconnect at any point.
type rawClient struct {
	t    *testing.T
	in   *io.PipeWriter // client -> server
	out  *io.PipeReader // server -> client
	r    *bufio.Reader
	done chan error // serveConn's result
	mh   *Host
}

func connectRaw(t *testing.T, eng engine.Engine, capabilities string) *rawClient {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	mh := newHost(eng, Config{Version: "test"})
	tr := &mcpstdio.Transport{In: c2sR, Out: s2cW}
	c := &rawClient{t: t, in: c2sW, out: s2cR, r: bufio.NewReader(s2cR), done: make(chan error, 1), mh: mh}
	go func() {
		c.done <- mh.serveConn(context.Background(), tr)
		_ = s2cW.Close()
	}()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` +
		capabilities + `,"clientInfo":{"name":"raw","version":"0"}}}`)
	msg := c.recv()
	require.Equal(t, "init", msg["id"], msg)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	_, err := io.WriteString(c.in, line+"\n")
	require.NoError(c.t, err)
}

// recv reads the next message from the server (10 s at most).
func (c *rawClient) recv() map[string]any {
	c.t.Helper()
	type read struct {
		line string
		err  error
	}
	ch := make(chan read, 1)
	go func() {
		line, err := c.r.ReadString('\n')
		ch <- read{line, err}
	}()
	select {
	case r := <-ch:
		require.NoError(c.t, r.err)
		var msg map[string]any
		require.NoError(c.t, json.Unmarshal([]byte(r.line), &msg), r.line)
		return msg
	case <-time.After(10 * time.Second):
		c.t.Fatal("no message from the server within 10s")
		return nil
	}
}

// call sends a tools/call with the given id.
func (c *rawClient) call(id int, tool string, args map[string]any) {
	c.t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	require.NoError(c.t, err)
	c.send(string(b))
}

// resultText returns the text of a tools/call response.
func resultText(t *testing.T, msg map[string]any) string {
	t.Helper()
	res, ok := msg["result"].(map[string]any)
	require.True(t, ok, "a result: %v", msg)
	var parts []string
	for _, b := range res["content"].([]any) {
		if m := b.(map[string]any); m["type"] == "text" {
			parts = append(parts, m["text"].(string))
		}
	}
	return strings.Join(parts, "\n")
}

// disconnect closes both directions and waits for serveConn to return.
func (c *rawClient) disconnect() {
	c.t.Helper()
	_ = c.in.Close()
	_ = c.out.Close()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		c.t.Fatal("serveConn did not return within 10s of the disconnect")
	}
}

// Many calls at once on one connection (run with -race): every one is answered with its own result.
func TestServeConcurrentCallsOnOneConnection(t *testing.T) {
	ws := t.TempDir()
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	const n = 24
	for i := range n {
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), []byte(fmt.Sprintf("line %d\n", i)), 0o644))
	}
	ct, st := mcp.NewInMemoryTransports()
	mh := newHost(eng, Config{Version: "test", Cwd: &ws})
	done := make(chan error, 1)
	go func() { done <- mh.serveConn(context.Background(), st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			name := fmt.Sprintf("f%d.txt", i)
			ctx := context.Background()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": name}})
			if !assert.NoError(t, err) || !assert.False(t, res.IsError) {
				return
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"file_path": name,
				"old_string": fmt.Sprintf("line %d", i), "new_string": fmt.Sprintf("LINE %d", i)}})
			if assert.NoError(t, err) {
				assert.False(t, res.IsError, "%s: %v", name, res.Content)
			}
			_, err = cs.ListTools(ctx, nil)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	for i := range n {
		b, err := os.ReadFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("LINE %d\n", i), string(b))
	}
	require.NoError(t, cs.Close())
	require.NoError(t, <-done)
}

// When the attachment store goes away (its plugin disposed by a reconcile), read_image leaves the
// served tool list: tools/list no longer offers it and the client is told the list changed (the
// server advertises tools.listChanged). Before the fix the list was fixed when serve started.
func TestServeToolListFollowsTheStore(t *testing.T) {
	memory := func() (mcp.Transport, mcp.Transport) {
		ct, st := mcp.NewInMemoryTransports()
		return ct, st
	}
	stdio := func() (mcp.Transport, mcp.Transport) {
		c2sR, c2sW := io.Pipe()
		s2cR, s2cW := io.Pipe()
		return &mcp.IOTransport{Reader: s2cR, Writer: c2sW}, &mcpstdio.Transport{In: c2sR, Out: s2cW}
	}
	for _, tc := range []struct {
		name       string
		transports func() (mcp.Transport, mcp.Transport)
		version    string
		direct     bool // the listed tool's call runs outside the SDK
	}{
		{"memory", memory, "", false},
		{"stdio-2025-11-25", stdio, "2025-11-25", true},
		{"stdio-2026-07-28", stdio, "2026-07-28", false},
	} {
		t.Run(tc.name, func(t *testing.T) { testToolListFollowsTheStore(t, tc.transports, tc.version, tc.direct) })
	}
}

func testToolListFollowsTheStore(t *testing.T, transports func() (mcp.Transport, mcp.Transport), version string, direct bool) {
	ws := t.TempDir()
	h := composeProfile(t, "", ws, nil)
	defer h.close()
	eng, err := newToolsEngine(h.k)
	require.NoError(t, err)

	ct, st := transports()
	mh := newHost(eng, Config{Version: "test", Cwd: &ws})
	done := make(chan error, 1)
	go func() { done <- mh.serveConn(context.Background(), st) }()
	changed := make(chan struct{}, 8)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	names := func() []string {
		res, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	assert.ElementsMatch(t, []string{"read", "write", "edit", "glob", "grep", "apply_patch", "read_image", "undo"}, names())
	image := &mcp.CallToolParams{Name: "read_image", Arguments: map[string]any{"file_path": "x.png"}}
	res, err := cs.CallTool(context.Background(), image)
	require.NoError(t, err)
	assert.True(t, res.IsError, "a listed tool runs (x.png does not exist)")
	ran := map[bool]int64{true: 1, false: 0}[direct]
	assert.Equal(t, ran, mh.direct.Load())

	var kept []loader.Entry
	for _, e := range h.ld.Entries() {
		if e.Name != "attachment-local" {
			kept = append(kept, e)
		}
	}
	require.NoError(t, h.ld.Apply(context.Background(), kept))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Error("no notifications/tools/list_changed after read_image went away")
	}
	assert.ElementsMatch(t, []string{"read", "write", "edit", "glob", "grep", "apply_patch", "undo"}, names())
	_, err = cs.CallTool(context.Background(), image)
	assert.ErrorContains(t, err, `unknown tool "read_image"`, "the SDK answers a call of an unlisted tool")
	assert.Equal(t, ran, mh.direct.Load(), "an unlisted tool is left to the SDK")

	require.NoError(t, cs.Close())
	err = <-done
	assert.True(t, err == nil || isClosedErr(err), "%v", err)
}

// tools/call with "arguments": null is a call with no arguments, as in `run` ("args": null): the
// tool's own argument checks answer, not a refusal of the null.
func TestServeNullArguments(t *testing.T) {
	ws := t.TempDir()
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644))
	c := connectRaw(t, eng, `{}`)
	defer c.disconnect()
	for i, args := range []string{`null`, `{}`} {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":%s}}`, i+2, args))
		assert.Equal(t, `Error: invalid arguments: missing required property "file_path"`, resultText(t, c.recv()), args)
	}
	c.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read"}}`)
	assert.Equal(t, `Error: invalid arguments: missing required property "file_path"`, resultText(t, c.recv()))
}

// A client that sends calls and goes away before reading any answer: every call ends, serveConn
// returns, the session ends, and no goroutine is left behind.
func TestServeDisconnectMidCalls(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ws := t.TempDir()
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	var body strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&body, "line %d\n", i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big.txt"), []byte(body.String()), 0o644))
	c := connectRaw(t, eng, `{}`)
	sent := make(chan struct{})
	go func() { // the server stops reading while its answers go unread (back-pressure): send aside
		defer close(sent)
		for i := range 16 {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
				"params": map[string]any{"name": "read", "arguments": map[string]any{"file_path": filepath.Join(ws, "big.txt"), "limit": 20000}}})
			if _, err := io.WriteString(c.in, string(b)+"\n"); err != nil {
				return // the disconnect below closed the pipe
			}
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "tools/call",
			"params": map[string]any{"name": "write", "arguments": map[string]any{"file_path": filepath.Join(ws, "new.txt"), "content": "n\n"}}})
		_, _ = io.WriteString(c.in, string(b)+"\n")
	}()
	time.Sleep(50 * time.Millisecond) // let calls start
	c.disconnect()
	<-sent
	c.mh.mu.Lock()
	assert.Empty(t, c.mh.conns)
	c.mh.mu.Unlock()
}
