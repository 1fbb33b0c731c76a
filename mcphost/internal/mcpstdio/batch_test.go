package mcpstdio_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// batchOf is a batch of n "count" calls with ids 1..n.
func batchOf(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"count","arguments":{}}}`
	}
	return "[" + strings.Join(calls, ",") + "]"
}

func (w *osWire) recvBatch() []map[string]json.RawMessage {
	w.t.Helper()
	line := <-w.lines
	var parts []map[string]json.RawMessage
	require.NoError(w.t, json.Unmarshal([]byte(line), &parts), line)
	return parts
}

// A batch of more than MaxBatch messages is refused whole, with one error, and nothing in it runs.
func TestBatchOverTheCapIsRefused(t *testing.T) {
	w := serveOS(t, "2025-03-26", mcpstdio.Options{MaxBatch: 3})
	w.send(batchOf(4))
	m := w.recv()
	assert.Equal(t, "null", string(m["id"]))
	assert.JSONEq(t, `{"code":-32600,"message":"invalid request: a batch of more than 3 messages"}`, string(m["error"]))
	w.send(batchOf(3))
	assert.Len(t, w.recvBatch(), 3)
	assert.Equal(t, int32(3), w.counted.Load(), "only the batch within the cap ran")
}

// Once the answers held for a batch reach MaxBatchBytes, its calls not yet started are answered
// with an error and not run; the batch is still answered whole.
func TestBatchAnswersAreBounded(t *testing.T) {
	w := serveOS(t, "2025-03-26", mcpstdio.Options{MaxBatchBytes: 1, MaxInFlight: 1})
	w.send(batchOf(3))
	parts := w.recvBatch()
	require.Len(t, parts, 3)
	assert.Equal(t, "1", string(parts[0]["id"]))
	assert.Contains(t, string(parts[0]["result"]), "counted")
	for i, p := range parts[1:] {
		assert.Equal(t, strconv.Itoa(i+2), string(p["id"]))
		assert.JSONEq(t, `{"code":-32600,"message":"invalid request: the batch's answers passed 1 bytes; this call was not run"}`, string(p["error"]))
	}
	assert.Equal(t, int32(1), w.counted.Load())
}

// Under the sessionless 2026-07-28 protocol, where no initialize tells the version, a batch of its
// requests is refused as at any version from 2025-06-18 on.
func TestBatchOfTheSessionlessProtocolIsRefused(t *testing.T) {
	w := serveOS(t, "2026-07-28", mcpstdio.Options{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	w.send(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{},` + meta + `}}]`)
	m := w.recv()
	assert.JSONEq(t, `{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported in protocol version 2026-07-28"}`, string(m["error"]))
	assert.Zero(t, w.counted.Load())
}
