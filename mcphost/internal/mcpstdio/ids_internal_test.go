package mcpstdio

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A notification on a subscription the client has cancelled, sent before the SDK let go of it, is
// not sent; on one still open it names the stream by the client's id.
func TestNotificationOnACancelledSubscriptionIsNotSent(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	var out bytes.Buffer
	mc, err := (&Transport{In: in, Out: &out}).Connect(context.Background())
	require.NoError(t, err)
	c := mc.(*conn)
	defer c.Close()
	c.calls[1] = &call{id: json.RawMessage(`"listen:0"`), method: methodListen, seq: 1, cancelled: true}
	c.calls[2] = &call{id: json.RawMessage(`"listen:1"`), method: methodListen, seq: 2}
	for _, id := range []string{"1", "2", "3"} {
		n := &jsonrpc.Request{Method: "notifications/tools/list_changed",
			Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/subscriptionId":` + id + `}}`)}
		require.NoError(t, c.Write(context.Background(), n))
	}
	assert.Equal(t, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen:1"}}}`+"\n", out.String())
}
