package mcphost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/hosttest"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// oddIDs are ids the SDK alone does not send back as they came: numbers it decodes into an int64
// (1.50 comes back as 1, 2^53+1 as 2^53, 1e300 as the smallest int64, -0 as 0) and strings it
// re-encodes (an escape); two plain strings, one with HTML characters.
var oddIDs = []string{`1.50`, `9007199254740993`, `1e300`, `-0`, `"listen:0"`, `"l<&>"`, `"\u00e9"`}

// sessionlessMeta is the _meta every request of the 2026-07-28 protocol carries.
const sessionlessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// openSession opens a session at version with the given client capabilities and returns the
// headers of its later requests.
func openSession(t *testing.T, url, version, capabilities string) map[string]string {
	t.Helper()
	res := rawPost(t, url, nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+
		`","capabilities":`+capabilities+`,"clientInfo":{"name":"raw","version":"0"}}}`)
	require.Equal(t, http.StatusOK, res.StatusCode)
	_, _ = io.Copy(io.Discard, res.Body)
	h := map[string]string{"Mcp-Session-Id": res.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": version}
	require.NotEmpty(t, h["Mcp-Session-Id"])
	res = rawPost(t, url, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	return h
}

// responseTo reads the whole response and returns its message with the given id (nil if none came).
func responseTo(t *testing.T, res *http.Response, id string) map[string]json.RawMessage {
	t.Helper()
	var got map[string]json.RawMessage
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		require.NoError(t, json.NewDecoder(res.Body).Decode(&got))
		require.Equal(t, id, string(got["id"]))
		return got
	}
	for m := range hosttest.SSEMessages(res.Body) {
		if _, isRequest := m["method"]; !isRequest && string(m["id"]) == id {
			got = m
		}
	}
	return got
}

// Every id a client sends comes back as it was sent, byte for byte, at every protocol version:
// the response's id, and at 2026-07-28 the subscriptionId of a subscriptions/listen stream.
func TestHTTPIdsComeBackAsSent(t *testing.T) {
	fx := startHTTP(t, "", nil)
	require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "a.txt"), []byte("alpha\n"), 0o644))
	read := func(id, meta string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + meta +
			`"name":"read","arguments":{"file_path":"a.txt"}}}`
	}
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			h := openSession(t, fx.url+"/mcp", version, `{}`)
			for _, id := range oddIDs {
				res := rawPost(t, fx.url+"/mcp", h, read(id, `"_meta":{"progressToken":`+id+`},`))
				require.Equal(t, http.StatusOK, res.StatusCode, id)
				m := responseTo(t, res, id)
				require.NotNil(t, m, "no response with id %s", id)
				assert.Contains(t, string(m["result"]), `1: alpha`, id)
			}
		})
	}
	t.Run("2025-03-26 batch", func(t *testing.T) {
		h := openSession(t, fx.url+"/mcp", "2025-03-26", `{}`)
		var batch []string
		for _, id := range oddIDs {
			batch = append(batch, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		}
		res := rawPost(t, fx.url+"/mcp", h, "["+strings.Join(batch, ",")+"]")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var got []string
		for m := range hosttest.SSEMessages(res.Body) {
			got = append(got, string(m["id"]))
		}
		assert.ElementsMatch(t, oddIDs, got)

		res = rawPost(t, fx.url+"/mcp", h, `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, "a batch reusing an id is refused whole")
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		assert.Equal(t, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: a call with this id is still in flight"}}`, string(body))
	})
	t.Run("2026-07-28", func(t *testing.T) {
		h := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read"}
		for _, id := range oddIDs {
			res := rawPost(t, fx.url+"/mcp", h, read(id, sessionlessMeta+`,`))
			require.Equal(t, http.StatusOK, res.StatusCode, id)
			m := responseTo(t, res, id)
			require.NotNil(t, m, "no response with id %s", id)
			assert.Contains(t, string(m["result"]), `1: alpha`, id)
		}
		for _, id := range oddIDs {
			res := rawPost(t, fx.url+"/mcp", map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "nope/nope"},
				`{"jsonrpc":"2.0","id":`+id+`,"method":"nope/nope","params":{`+sessionlessMeta+`}}`)
			assert.Equal(t, http.StatusNotFound, res.StatusCode, id)
			m := responseTo(t, res, id) // an error the SDK writes as the body, not an event
			assert.Contains(t, string(m["error"]), `"code":-32601`, id)
		}
		for _, id := range oddIDs {
			res := rawPost(t, fx.url+"/mcp", map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"},
				`{"jsonrpc":"2.0","id":`+id+`,"method":"subscriptions/listen","params":{`+sessionlessMeta+
					`,"notifications":{"toolsListChanged":true}}}`)
			require.Equal(t, http.StatusOK, res.StatusCode, id)
			ack := <-hosttest.SSEMessages(res.Body)
			require.NoError(t, res.Body.Close()) // closing the stream is the cancellation over HTTP
			var p struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			require.NoError(t, json.Unmarshal(ack["params"], &p), show(ack))
			assert.Equal(t, `"notifications/subscriptions/acknowledged"`, string(ack["method"]), id)
			assert.Equal(t, id, string(p.Meta["io.modelcontextprotocol/subscriptionId"]), id)
		}
	})
}

// escalate is a tools/call that waits for the user's approval (an elicitation on its stream).
func escalate(t *testing.T, id string) string {
	args, err := json.Marshal(map[string]any{"file_path": filepath.Join(sandboxtest.OutsideDir(t), "x.txt"), "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."})
	require.NoError(t, err)
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"write","arguments":` + string(args) + `}}`
}

// After the client's notifications/cancelled for a call, the call gets no response: its POST's
// stream ends without one (MCP cancellation: the receiver does not answer a cancelled request). The
// session goes on, and the call's id is free again.
func TestHTTPCancelledCallGetsNoResponse(t *testing.T) {
	fx := startHTTP(t, "sandboxed", nil)
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		for _, id := range []string{`"c:1"`, `1e300`, `1.50`} {
			t.Run(version+"/"+id, func(t *testing.T) {
				h := openSession(t, fx.url+"/mcp", version, `{"elicitation":{}}`)
				res := rawPost(t, fx.url+"/mcp", h, escalate(t, id))
				require.Equal(t, http.StatusOK, res.StatusCode)
				msgs := hosttest.SSEMessages(res.Body)
				first := <-msgs
				require.Equal(t, `"elicitation/create"`, string(first["method"]), show(first))

				cancel := rawPost(t, fx.url+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"changed my mind"}}`)
				assert.Equal(t, http.StatusAccepted, cancel.StatusCode)
				for m := range msgs { // the stream ends
					assert.Contains(t, m, "method", "a response after the cancellation: %s", show(m))
				}
				assert.Equal(t, http.StatusOK, res.StatusCode)

				res = rawPost(t, fx.url+"/mcp", h, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
				assert.NotNil(t, responseTo(t, res, id), "the id is free again, the session goes on")
			})
		}
	}
}

// A call whose id is that of a call still in flight in its session is refused (-32600, with the id
// as sent); ids are compared as sent, so 1.5 is not 1.50. Another session's ids are its own.
func TestHTTPCallWithAnIdInFlight(t *testing.T) {
	fx := startHTTP(t, "sandboxed", nil)
	h := openSession(t, fx.url+"/mcp", "2025-11-25", `{"elicitation":{}}`)
	res := rawPost(t, fx.url+"/mcp", h, escalate(t, `1.50`))
	msgs := hosttest.SSEMessages(res.Body)
	require.Equal(t, `"elicitation/create"`, string((<-msgs)["method"]))

	dup := rawPost(t, fx.url+"/mcp", h, `{"jsonrpc":"2.0","id":1.50,"method":"ping"}`)
	assert.Equal(t, http.StatusBadRequest, dup.StatusCode)
	body, err := io.ReadAll(dup.Body)
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1.50,"error":{"code":-32600,"message":"invalid request: a call with this id is still in flight"}}`,
		string(body))

	for _, id := range []string{`1.5`, `1`, `"1.50"`} {
		res := rawPost(t, fx.url+"/mcp", h, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		assert.NotNil(t, responseTo(t, res, id), id)
	}
	other := openSession(t, fx.url+"/mcp", "2025-11-25", `{}`)
	res = rawPost(t, fx.url+"/mcp", other, `{"jsonrpc":"2.0","id":1.50,"method":"ping"}`)
	assert.NotNil(t, responseTo(t, res, `1.50`), "another session's id")

	rawPost(t, fx.url+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.50}}`)
	for m := range msgs {
		assert.Contains(t, m, "method", "no response after the cancellation: %s", show(m))
	}
	ids := fx.srv.ids
	require.Eventually(t, func() bool {
		ids.mu.Lock()
		defer ids.mu.Unlock()
		return len(ids.sessions) == 0
	}, 10*time.Second, 5*time.Millisecond, "once no POST is in flight, nothing is held")
}

// show is a message as JSON, for failure messages.
func show(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// surrogateOf returns the body the SDK is given for a POST of body, and the POST's surrogates.
func surrogateOf(t *testing.T, ids *httpIDs, body string) (string, *idPost) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	r.Body = &bodyBuffer{bytes.NewReader([]byte(body)), []byte(body)}
	p, ok := ids.begin(httptest.NewRecorder(), r, idScope{})
	require.True(t, ok)
	require.NotNil(t, p)
	got, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	require.Equal(t, int64(len(got)), r.ContentLength)
	return string(got), p
}

// What the handler writes is rewritten however its writes cut it: an event split anywhere, a JSON
// body split in the middle of a surrogate.
func TestIDWriterSplitWrites(t *testing.T) {
	ids := newHTTPIDs()
	sent, p := surrogateOf(t, ids, `{"jsonrpc":"2.0","id":1e300,"method":"tools/call","params":{"_meta":{"progressToken":"p<1>"},"name":"x"}}`)
	var sdk struct{ ID json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(sent), &sdk))
	tok := string(sdk.ID)
	require.True(t, strings.HasPrefix(tok, `"~`), sent)
	ptok := tok[:strings.LastIndexByte(tok, '.')+1] + fmt.Sprint(p.base+1) + `"`
	require.Contains(t, sent, `"progressToken":`+ptok)

	escaped := `\"` + tok[1:len(tok)-1] + `\"` // inside a string: not the SDK's surrogate
	stream := "event: message\ndata: {\"method\":\"notifications/progress\",\"params\":{\"progressToken\":" + ptok + ",\"progress\":1}}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + tok + ",\"result\":{\"text\":\"" + escaped + " is not a string the client sent\"}}\n\n"
	want := "event: message\ndata: {\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p<1>\",\"progress\":1}}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1e300,\"result\":{\"text\":\"" + escaped + " is not a string the client sent\"}}\n\n"
	body := `{"jsonrpc":"2.0","id":` + tok + `,"error":{"code":-32601,"message":"nope"}}`
	wantBody := `{"jsonrpc":"2.0","id":1e300,"error":{"code":-32601,"message":"nope"}}`
	for cut := range len(stream) {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "text/event-stream")
		w := &idWriter{ResponseWriter: rec, post: p}
		for _, part := range []string{stream[:cut], stream[cut:]} {
			n, err := w.Write([]byte(part))
			require.NoError(t, err)
			require.Equal(t, len(part), n)
		}
		w.finish()
		require.Equal(t, want, rec.Body.String(), "cut at %d", cut)
	}
	for cut := range len(body) {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/json")
		w := &idWriter{ResponseWriter: rec, post: p}
		_, _ = w.Write([]byte(body[:cut]))
		_, _ = w.Write([]byte(body[cut:]))
		w.finish()
		require.Equal(t, wantBody, rec.Body.String(), "cut at %d", cut)
	}
}

// A call's progressToken comes back as sent in the progress notifications the server sends on the
// call's stream (the SDK re-encodes a number through float64).
func TestHTTPProgressTokenComesBackAsSent(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "progress", Version: "0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "tick"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, err
	})
	s := &httpServer{ids: newHTTPIDs()}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		r.Body = &bodyBuffer{bytes.NewReader(data), data}
		s.withIDs(w, r, idScope{session: r.Header.Get("Mcp-Session-Id")}, sdk)
	}))
	defer ts.Close()
	h := openSession(t, ts.URL, "2025-11-25", `{}`)
	for _, id := range oddIDs {
		res := rawPost(t, ts.URL, h, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"_meta":{"progressToken":`+id+
			`},"name":"tick","arguments":{}}}`)
		var progress, answered []string
		for m := range hosttest.SSEMessages(res.Body) {
			if string(m["method"]) == `"notifications/progress"` {
				var p struct{ ProgressToken json.RawMessage }
				require.NoError(t, json.Unmarshal(m["params"], &p))
				progress = append(progress, string(p.ProgressToken))
			} else {
				answered = append(answered, string(m["id"]))
			}
		}
		assert.Equal(t, []string{id}, progress)
		assert.Equal(t, []string{id}, answered)
	}
}
