package mcpstdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// osWire is a client of a server served over a Transport on operating-system pipes.
type osWire struct {
	t       *testing.T
	in      *os.File
	lines   chan string  // the server's output lines; closed at its end
	version string       // the protocol version the client speaks
	running chan string  // the "wait" calls' names as they start
	counted atomic.Int32 // the "count" calls run
	server  *mcp.Server
}

// versions are the protocol versions the SDK server negotiates that these tests speak.
var versions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// serveOS serves an SDK server (tools "wait", which holds until cancelled, "count", which counts
// its calls, "progress", which
// reports progress under the call's token, and "ask", which elicits) over a Transport on os.Pipe
// and, below 2026-07-28, initializes at version (declaring elicitation).
func serveOS(t *testing.T, version string, opt mcpstdio.Options) *osWire {
	t.Helper()
	w := &osWire{t: t, lines: make(chan string, 64), version: version, running: make(chan string, 16)}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	w.server = s
	mcp.AddTool(s, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		w.running <- "wait"
		<-ctx.Done()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "stopped"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		w.counted.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "counted"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "progress"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 2})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "reported"}}}, nil, err
	})
	mcp.AddTool(s, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "ok?", RequestedSchema: map[string]any{"type": "object"}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "asked"}}}, nil, err
	})
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	w.in = inW
	tr := &mcpstdio.Transport{In: inR, Out: outW, Options: opt}
	go func() {
		if ss, err := s.Connect(context.Background(), tr, nil); err == nil {
			_ = ss.Wait()
		}
		_ = outW.Close()
	}()
	go func() {
		defer close(w.lines)
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				w.lines <- line
			}
			if err != nil {
				_ = outR.Close()
				return
			}
		}
	}()
	t.Cleanup(func() { _ = inW.Close() })
	if version < "2026-07-28" {
		w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version +
			`","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"0"}}}`)
		require.Equal(t, `"init"`, string(w.recv()["id"]))
		w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	return w
}

func (w *osWire) send(line string) {
	w.t.Helper()
	_, err := w.in.WriteString(line + "\n")
	require.NoError(w.t, err)
}

// request sends a request with the client's _meta: the protocol's per-request keys at 2026-07-28,
// plus extra (such as a progressToken).
func (w *osWire) request(id, method, params, extra string) {
	w.t.Helper()
	meta := extra
	if w.version >= "2026-07-28" {
		meta = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"0"},` +
			`"io.modelcontextprotocol/clientCapabilities":{}`
		if extra != "" {
			meta += "," + extra
		}
	}
	p := `{"_meta":{` + meta + `}`
	if params != "" {
		p += "," + params
	}
	w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + p + `}}`)
}

func (w *osWire) recv() map[string]json.RawMessage {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		require.True(w.t, ok, "the server ended its output")
		var m map[string]json.RawMessage
		require.NoError(w.t, json.Unmarshal([]byte(line), &m), line)
		return m
	case <-time.After(10 * time.Second):
		w.t.Fatal("no message")
		return nil
	}
}

// rest closes the client's output and returns every line the server writes until it ends.
func (w *osWire) rest() []string {
	w.t.Helper()
	require.NoError(w.t, w.in.Close())
	var out []string
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				return out
			}
			out = append(out, line)
		case <-timeout:
			w.t.Fatalf("the server did not end; it wrote %q", out)
		}
	}
}

// meta returns params._meta (or result._meta) of a message.
func meta(t *testing.T, m map[string]json.RawMessage, field string) map[string]json.RawMessage {
	t.Helper()
	var v struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(m[field], &v), "%s", m[field])
	return v.Meta
}

const subscriptionID = "io.modelcontextprotocol/subscriptionId"

// A subscriptions/listen stream is named by the client's id, as the client wrote it, in its
// acknowledgement, in every notification on it and in its closing result; a stream the client
// cancels gets no response, and one still open when the input ends is closed with its result.
func TestSubscriptionIdIsTheClients(t *testing.T) {
	w := serveOS(t, "2026-07-28", mcpstdio.Options{})
	w.request(`"listen:0"`, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "")
	ack := w.recv()
	require.Equal(t, `"notifications/subscriptions/acknowledged"`, string(ack["method"]))
	assert.Equal(t, `"listen:0"`, string(meta(t, ack, "params")[subscriptionID]))

	mcp.AddTool(w.server, &mcp.Tool{Name: "new"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	n := w.recv()
	require.Equal(t, `"notifications/tools/list_changed"`, string(n["method"]))
	assert.Equal(t, `"listen:0"`, string(meta(t, n, "params")[subscriptionID]))

	for _, id := range []string{`1.50`, `"l<&>"`} {
		w.request(id, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "")
		ack = w.recv()
		assert.Equal(t, id, string(meta(t, ack, "params")[subscriptionID]))
	}

	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen:0"}}`)
	w.request(`"after"`, "tools/list", "", "")
	assert.Equal(t, `"after"`, string(w.recv()["id"]))

	rest := w.rest()
	require.Len(t, rest, 2, "only the open streams' closing results: %q", rest)
	closed := map[string]bool{}
	for _, line := range rest {
		var closing map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &closing))
		assert.NotContains(t, closing, "error")
		assert.Equal(t, string(closing["id"]), string(meta(t, closing, "result")[subscriptionID]))
		closed[string(closing["id"])] = true
	}
	assert.Equal(t, map[string]bool{`1.50`: true, `"l<&>"`: true}, closed)
}

// A cancelled call gets no response, at every version, whether its handler saw the cancellation
// before or after it started; the calls around it are answered.
func TestCancelledCallIsNotAnswered(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			w := serveOS(t, v, mcpstdio.Options{})
			w.request(`"c:1"`, "tools/call", `"name":"wait","arguments":{}`, "")
			<-w.running
			w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c:1","reason":"user"}}`)
			w.request(`"c:2"`, "tools/list", "", "")
			assert.Equal(t, `"c:2"`, string(w.recv()["id"]))
			for _, line := range w.rest() {
				assert.NotContains(t, line, `"c:1"`)
			}
		})
	}
}

// A progress notification carries the call's progressToken as the client wrote it, at every
// version.
func TestProgressTokenIsTheClients(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			w := serveOS(t, v, mcpstdio.Options{})
			for i, token := range []string{`"listen:0"`, `7`, `9007199254740993`, `1.50`, `-0`, `"a<b&c"`} {
				id := `"p` + string(rune('0'+i)) + `"`
				w.request(id, "tools/call", `"name":"progress","arguments":{}`, `"progressToken":`+token)
				n := w.recv()
				require.Equal(t, `"notifications/progress"`, string(n["method"]), "%v", n)
				var p struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				}
				require.NoError(t, json.Unmarshal(n["params"], &p))
				assert.Equal(t, token, string(p.ProgressToken))
				assert.Equal(t, id, string(w.recv()["id"]))
			}
		})
	}
}

// When a call that is waiting for the client's answer to an elicitation is cancelled, the server's
// notifications/cancelled names the elicitation by the id it was sent with, and the call gets no
// response.
func TestServerCancellationNamesItsOwnRequest(t *testing.T) {
	for _, v := range versions[:2] { // 2026-07-28 has no server-to-client requests
		t.Run(v, func(t *testing.T) {
			w := serveOS(t, v, mcpstdio.Options{})
			w.request(`"ask:1"`, "tools/call", `"name":"ask","arguments":{}`, "")
			ask := w.recv()
			require.Equal(t, `"elicitation/create"`, string(ask["method"]))
			w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"ask:1"}}`)
			n := w.recv()
			require.Equal(t, `"notifications/cancelled"`, string(n["method"]), "%v", n)
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			require.NoError(t, json.Unmarshal(n["params"], &p))
			assert.Equal(t, string(ask["id"]), string(p.RequestID))
			for _, line := range w.rest() {
				assert.False(t, strings.Contains(line, `"ask:1"`), "a response to the cancelled call: %s", line)
			}
		})
	}
}
