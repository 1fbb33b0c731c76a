package app

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Over HTTP the SDK's handler works on the client's own ids: at 2026-07-28 the acknowledgement of a
// subscriptions/listen stream names it by the client's string id, as on stdio.
func TestHTTPSubscriptionIdIsTheClients(t *testing.T) {
	fx := startHTTP(t, "default", nil)
	res := rawPost(t, fx.url+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"},
		`{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":{"_meta":{`+
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},`+
			`"io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"toolsListChanged":true}}}`)
	require.Equal(t, 200, res.StatusCode)
	r := bufio.NewReader(res.Body)
	var data string
	for data == "" {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			data = d
		}
	}
	require.NoError(t, res.Body.Close()) // closing the stream is the cancellation over HTTP
	var ack struct {
		Method string
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(data), &ack), data)
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)
	assert.Equal(t, `"listen:0"`, string(ack.Params.Meta["io.modelcontextprotocol/subscriptionId"]))
}
