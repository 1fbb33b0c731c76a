package main_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newProtocolMeta is the _meta every request of the sessionless 2026-07-28 protocol carries.
const newProtocolMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"wire","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`

// The start of a 2026-07-28 stdio client such as Claude Code: it opens subscriptions/listen with a
// string id and waits for the acknowledgement naming that id; later it cancels the stream (no
// response follows) and goes on. A stream still open when stdin ends is closed with its result, and
// the process exits.
func TestServeSubscriptionsListenOverStdio(t *testing.T) {
	w := startWire(t, "--cwd", realTemp(t))
	w.send(`{"jsonrpc":"2.0","id":"d:0","method":"server/discover","params":{` + newProtocolMeta + `}}`)
	require.Equal(t, `"d:0"`, string(w.recv()["id"]))
	listen := func(id string) {
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":{` + newProtocolMeta +
			`,"notifications":{"toolsListChanged":true}}}`)
		ack := w.recv()
		require.Equal(t, `"notifications/subscriptions/acknowledged"`, string(ack["method"]), "%v", ack)
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(ack["params"], &p))
		assert.Equal(t, id, string(p.Meta["io.modelcontextprotocol/subscriptionId"]))
	}
	listen(`"listen:0"`)
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen:0"}}`)
	w.send(`{"jsonrpc":"2.0","id":"tools:1","method":"tools/list","params":{` + newProtocolMeta + `}}`)
	assert.Equal(t, `"tools:1"`, string(w.recv()["id"]), "the tool list follows the cancellation; no response to it")
	listen(`"listen:1"`)

	require.NoError(t, w.in.Close())
	var rest []map[string]json.RawMessage
	for line := range w.lines {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(line, &m), "%s", line)
		rest = append(rest, m)
	}
	require.Len(t, rest, 1, "the open stream's closing result, nothing else")
	assert.Equal(t, `"listen:1"`, string(rest[0]["id"]))
	assert.NotContains(t, rest[0], "error")
	exited := make(chan error, 1)
	go func() { exited <- w.cmd.Wait() }()
	select {
	case err := <-exited:
		assert.NoError(t, err, "exit status (stderr: %s)", w.errb.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not exit after stdin ended with a subscription open")
	}
}
