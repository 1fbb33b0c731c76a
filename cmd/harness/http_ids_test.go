package main_test

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/hosttest"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// httpSession opens a session of a `serve --http` process at version and returns the headers of
// its later requests.
func (s *httpServe) session(t *testing.T, version, capabilities string) map[string]string {
	t.Helper()
	res := s.post(t, nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+
		`","capabilities":`+capabilities+`,"clientInfo":{"name":"raw","version":"0"}}}`)
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	h := map[string]string{"Mcp-Session-Id": res.Header.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": version}
	require.NotEmpty(t, h["Mcp-Session-Id"])
	res = s.post(t, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = res.Body.Close()
	return h
}

// Over HTTP, as on stdio, every id naming a client request comes back exactly as the client wrote
// it, at every protocol version: the response's id, and at 2026-07-28 the subscriptionId of a
// subscriptions/listen stream's acknowledgement. After the client's notifications/cancelled for a
// call, the call's stream ends with no response to it.
func TestServeHTTPIdsAndCancellation(t *testing.T) {
	ws := realTemp(t)
	writeFile(t, filepath.Join(ws, "a.txt"), "alpha\n")
	s := startHTTPServe(t, "127.0.0.1:0", "--profile", "sandboxed", "--cwd", ws)
	ids := []string{`1.50`, `9007199254740993`, `1e300`, `-0`, `"listen:0"`, `"l<&>"`}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}},`
	read := func(id, meta string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + meta + `"name":"read","arguments":{"file_path":"a.txt"}}}`
	}
	answered := func(res *http.Response) []string {
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
		var got []string
		for m := range hosttest.SSEMessages(res.Body) {
			if _, isRequest := m["method"]; !isRequest {
				assert.Contains(t, string(m["result"]), "1: alpha")
				got = append(got, string(m["id"]))
			}
		}
		return got
	}
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		h := s.session(t, version, `{}`)
		for _, id := range ids {
			assert.Equal(t, []string{id}, answered(s.post(t, h, read(id, ""))), version)
		}
	}
	sessionless := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read"}
	for _, id := range ids {
		assert.Equal(t, []string{id}, answered(s.post(t, sessionless, read(id, meta))), "2026-07-28")

		res := s.post(t, map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"},
			`{"jsonrpc":"2.0","id":`+id+`,"method":"subscriptions/listen","params":{`+meta+`"notifications":{"toolsListChanged":true}}}`)
		ack := <-hosttest.SSEMessages(res.Body)
		_ = res.Body.Close() // closing the stream is the cancellation over HTTP
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(ack["params"], &p))
		assert.Equal(t, `"notifications/subscriptions/acknowledged"`, string(ack["method"]))
		assert.Equal(t, id, string(p.Meta["io.modelcontextprotocol/subscriptionId"]))
	}

	h := s.session(t, "2025-11-25", `{"elicitation":{}}`)
	args, err := json.Marshal(map[string]any{"file_path": filepath.Join(sandboxtest.OutsideDir(t), "x.txt"), "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for it."})
	require.NoError(t, err)
	res := s.post(t, h, `{"jsonrpc":"2.0","id":"c:1","method":"tools/call","params":{"name":"write","arguments":`+string(args)+`}}`)
	defer res.Body.Close()
	events := hosttest.SSEMessages(res.Body)
	require.Equal(t, `"elicitation/create"`, string((<-events)["method"]), "the approval is asked")
	cancel := s.post(t, h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c:1"}}`)
	_ = cancel.Body.Close()
	assert.Equal(t, http.StatusAccepted, cancel.StatusCode)
	for m := range events {
		assert.Contains(t, m, "method", "no response to the cancelled call")
	}
	assert.Equal(t, []string{`"c:1"`}, answered(s.post(t, h, read(`"c:1"`, ""))), "the session goes on, the id is free")
}
