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

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// The model-facing texts of an escalation's outcomes (docs/tool-fs.md "Sandbox escalation").
const (
	escRejected    = `Error: the user rejected escalating this operation to "danger-full-access"`
	escCancelled   = `Error: approval for escalating to "danger-full-access" was cancelled`
	escUnavailable = `Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available`
)

// escalation is the write of a file outside the workspace with an escalation request.
func escalation(target string) map[string]any {
	return map[string]any{"file_path": target, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."}
}

// The answers a client may give to the approval elicitation of an escalation, each mapped to its
// outcome text; nothing is written unless the user allowed it.
func TestServeEscalationElicitationAnswers(t *testing.T) {
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	for i, tc := range []struct {
		name, answer, text string
	}{
		{"allow once", `{"action":"accept","content":{"decision":"allow-once"}}`, ""},
		{"reject in the form", `{"action":"accept","content":{"decision":"reject"}}`, escRejected},
		{"decline", `{"action":"decline"}`, escRejected},
		{"cancel", `{"action":"cancel"}`, escCancelled},
		{"accept without content", `{"action":"accept"}`, escRejected},
		{"a value outside the enum", `{"action":"accept","content":{"decision":"allow-always"}}`, escUnavailable},
		{"a decision of the wrong type", `{"action":"accept","content":{"decision":1}}`, escUnavailable},
		{"an unknown action", `{"action":"maybe"}`, escCancelled},
		{"an error answer", "", escUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := connectRaw(t, eng, `{"elicitation":{}}`)
			defer c.disconnect()
			target := filepath.Join(out, fmt.Sprintf("t%d.txt", i))
			c.call(2, "write", escalation(target))
			ask := c.recv()
			require.Equal(t, "elicitation/create", ask["method"], ask)
			params := ask["params"].(map[string]any)
			assert.Equal(t, "Allow the \"write\" tool call?\nPath: "+target+"\nMode: danger-full-access (now workspace-write)\n"+
				"Justification: The user asked for it.\nContent: 2 bytes, 1 line\n  | x", params["message"])
			id, err := json.Marshal(ask["id"])
			require.NoError(t, err)
			if tc.answer == "" {
				c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32603,"message":"the client broke"}}`)
			} else {
				c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + tc.answer + `}`)
			}
			res := c.recv()
			assert.Equal(t, float64(2), res["id"])
			if tc.text == "" {
				assert.Equal(t, fsText("write.success", "envelope", fsText("read.envelope", "path", target, "body", fsText("write.created")),
					"counts", fsText("write.counts.new", "lines", fsText("lines.one"))), resultText(t, res))
				assert.FileExists(t, target)
				return
			}
			assert.Equal(t, tc.text, resultText(t, res))
			assert.NoFileExists(t, target)
		})
	}
}

// A client that did not declare elicitation is never asked: the escalation is unavailable.
func TestServeEscalationWithoutElicitation(t *testing.T) {
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	for _, caps := range []string{`{}`, `{"elicitation":{"url":{}}}`} {
		c := connectRaw(t, eng, caps)
		target := filepath.Join(out, "x.txt")
		c.call(2, "write", escalation(target))
		res := c.recv()
		assert.Equal(t, escUnavailable, resultText(t, res), caps)
		assert.NoFileExists(t, target)
		c.disconnect()
	}
}

// sessionOf returns the agent session of the host's only connection.
func (c *rawClient) sessionOf() *tools.Session {
	c.t.Helper()
	c.mh.mu.Lock()
	defer c.mh.mu.Unlock()
	require.Len(c.t, c.mh.conns, 1)
	for _, conn := range c.mh.conns {
		return engine.SessionOf(conn.session)
	}
	return nil
}

// A client that goes away while the server waits for its approval answer: the call ends, the
// connection's session ends with the state the policies held for it, and no goroutine is left.
func TestServeDisconnectMidElicitation(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	sp := sandbox.PolicyService.Must(h.k.Root()).(*sandboxpolicy.Service)
	ua, _ := tools.Approval.Must(h.k.Root()).(*userapproval.Service)
	require.NotNil(t, ua)

	var ended []*tools.Session // tools/session-ended is what every policy (observation included) drops state on
	var endedMu sync.Mutex
	_, err := tools.SessionEnded.On(h.k.Root(), func(_ context.Context, s *tools.Session) error {
		endedMu.Lock()
		ended = append(ended, s)
		endedMu.Unlock()
		return nil
	})
	require.NoError(t, err)
	c := connectRaw(t, eng, `{"elicitation":{}}`)
	c.call(2, "read", map[string]any{"file_path": filepath.Join(ws, "missing.txt")}) // opens the session
	c.recv()
	s := c.sessionOf()
	require.NoError(t, sp.SetMode(s, "read-only"))
	require.NoError(t, ua.SetPolicy(s, userapproval.PolicyAsk))
	c.call(3, "write", map[string]any{"file_path": filepath.Join(ws, "x.txt"), "content": "x\n",
		"sandbox_permissions": "workspace-write", "justification": "why"})
	ask := c.recv()
	require.Equal(t, "elicitation/create", ask["method"], ask)
	c.disconnect()

	endedMu.Lock()
	assert.Equal(t, []*tools.Session{s}, ended, "the connection's session ended once")
	endedMu.Unlock()
	_, ok := sp.OverrideOf(s)
	assert.False(t, ok, "the sandbox override is dropped with the session")
	_, ok = ua.OverrideOf(s)
	assert.False(t, ok, "the approval policy override is dropped with the session")
	c.mh.mu.Lock()
	assert.Empty(t, c.mh.conns)
	c.mh.mu.Unlock()
	assert.NoFileExists(t, filepath.Join(ws, "x.txt"))
	assert.NoFileExists(t, filepath.Join(out, "x.txt"))
}

// A client that cancels (notifications/cancelled) a call waiting for its approval answer: the
// pending elicitation is cancelled too, nothing is written, and the connection stays usable.
func TestServeCancelPendingCall(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	c := connectRaw(t, eng, `{"elicitation":{}}`)
	target := filepath.Join(out, "x.txt")
	c.call(2, "write", escalation(target))
	ask := c.recv()
	require.Equal(t, "elicitation/create", ask["method"], ask)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user stopped"}}`)
	c.call(9, "read", map[string]any{"file_path": filepath.Join(ws, "missing.txt")})
	// The server cancels its own request, naming it by the id it was sent with; the cancelled call
	// gets no response.
	for {
		msg := c.recv()
		if msg["method"] == "notifications/cancelled" {
			params := msg["params"].(map[string]any)
			assert.Equal(t, ask["id"], params["requestId"])
			continue
		}
		require.NotEqual(t, float64(2), msg["id"], "a response to the cancelled call: %v", msg)
		// The next call is answered: the connection is usable.
		require.Equal(t, float64(9), msg["id"], msg)
		break
	}
	assert.NoFileExists(t, target)
	c.disconnect()
}

// Ending serve (SIGTERM cancels its context) while a call waits for the client's approval answer:
// the wait is cancelled and serveConn returns; nothing is written. Before the fix serve hung until
// the client answered: the SDK's Close waits for the calls in flight.
func TestServeEndsDuringElicitation(t *testing.T) {
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	defer c2sW.Close()
	defer s2cR.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mh := newHost(eng, Config{Version: "test"})
	done := make(chan error, 1)
	go func() { done <- mh.serveConn(ctx, &mcpstdio.Transport{In: c2sR, Out: s2cW}) }()
	c := &rawClient{t: t, in: c2sW, out: s2cR, r: bufio.NewReader(s2cR), mh: mh}
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"0"}}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	target := filepath.Join(out, "x.txt")
	c.call(2, "write", escalation(target))
	require.Equal(t, "elicitation/create", c.recv()["method"])
	go func() { _, _ = io.Copy(io.Discard, s2cR) }() // keep reading whatever the server still writes
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(10 * time.Second):
		t.Fatal("serveConn did not return within 10s of its context ending during an elicitation")
	}
	assert.NoFileExists(t, target)
}

// Concurrent escalations on one connection: each call asks its own question and gets its own
// answer; an answer granted to one call never lets another through.
func TestServeConcurrentEscalations(t *testing.T) {
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	h, eng := sandboxedHost(t, ws)
	defer h.close()
	ct, st := mcp.NewInMemoryTransports()
	mh := newHost(eng, Config{Version: "test", Cwd: &ws})
	done := make(chan error, 1)
	go func() { done <- mh.serveConn(context.Background(), st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			time.Sleep(5 * time.Millisecond) // let the questions overlap
			if strings.Contains(req.Params.Message, "\nJustification: call ") && strings.Contains(req.Params.Message, ", allow me.\n") {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow-once"}}, nil
			}
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			why := fmt.Sprintf("call %d, reject me.", i)
			if i%2 == 0 {
				why = fmt.Sprintf("call %d, allow me.", i)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write", Arguments: map[string]any{
				"file_path": filepath.Join(out, fmt.Sprintf("f%d.txt", i)), "content": "x\n",
				"sandbox_permissions": "danger-full-access", "justification": why}})
			if !assert.NoError(t, err) {
				return
			}
			assert.Equal(t, i%2 != 0, res.IsError, "call %d", i)
		})
	}
	wg.Wait()
	for i := range n {
		_, err := os.Stat(filepath.Join(out, fmt.Sprintf("f%d.txt", i)))
		assert.Equal(t, i%2 == 0, err == nil, "f%d.txt", i)
	}
	require.NoError(t, cs.Close())
	require.NoError(t, <-done)
}
