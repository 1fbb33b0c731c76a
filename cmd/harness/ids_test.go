package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
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

// The batch bounds of serve on stdio: a batch over --max-batch is refused whole and nothing in it
// runs; once a batch's answers reach --max-batch-bytes its calls not yet started are refused.
func TestServeBatchBounds(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\n")
	read := func(id string) string { return callLine(id, "read", map[string]any{"file_path": "a.txt"}) }
	w := startWire(t, "--cwd", dir, "--max-batch", "2", "--max-batch-bytes", "1B", "--max-inflight", "1")
	w.initialize("2025-03-26")
	w.send(`[` + read("1") + `,` + read("2") + `,` + read("3") + `]`)
	m := w.recv()
	assert.Equal(t, "null", string(m["id"]))
	assert.JSONEq(t, `{"code":-32600,"message":"invalid request: a batch of more than 2 messages"}`, string(m["error"]))
	w.send(`[` + read("4") + `,` + read("5") + `]`)
	var batch []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(<-w.lines, &batch))
	require.Len(t, batch, 2)
	assert.Contains(t, wireText(t, batch[0]), "1: alpha")
	assert.JSONEq(t, `{"code":-32600,"message":"invalid request: the batch's answers passed 1 bytes; this call was not run"}`, string(batch[1]["error"]))
}

func TestServeBatchFlagErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--max-batch", "-1"}, "--max-batch must be positive (got -1)"},
		{[]string{"serve", "--max-batch-bytes", "0"}, `--max-batch-bytes: "0" is not a positive size`},
		{[]string{"serve", "--http", "127.0.0.1:0", "--max-batch", "5"}, "--max-batch only apply to stdio"},
		{[]string{"run", "--max-batch", "5"}, "-max-batch"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, stderr, code := runHarness(t, "", tt.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, out)
			assert.Contains(t, stderr, tt.want)
		})
	}
}
