package mcphost

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
)

// A plain tools/call on stdio is run outside the SDK, with the response the SDK's dispatch gives
// the same call (sent with a "_meta" key of the protocol's namespace, which the direct path leaves
// to the SDK); the shapes the SDK treats differently go to the SDK and keep its answers.
func TestServeDirectCallRouting(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := newHost(newFakeEngine(), Config{Version: "test", Structured: true})
	done := make(chan error, 1)
	go func() {
		done <- h.serveConn(context.Background(), &mcpstdio.Transport{In: inR, Out: outW})
		_ = outW.Close()
	}()
	out := bufio.NewReaderSize(outR, 1<<20)
	roundTrip := func(line string) string {
		t.Helper()
		_, err := io.WriteString(inW, line+"\n")
		require.NoError(t, err)
		resp, err := out.ReadString('\n')
		require.NoError(t, err)
		return resp
	}
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	x, err := json.Marshal(tricky + strings.Repeat("y", 10_000))
	require.NoError(t, err)
	echo := `"name":"echo","arguments":{"x":` + string(x) + `}`

	early := roundTrip(call("0", `{`+echo+`}`))
	assert.Contains(t, early, `"error"`, "before initialize the SDK refuses the call")
	assert.Zero(t, h.direct.Load())
	roundTrip(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	_, err = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	require.NoError(t, err)

	direct := roundTrip(call("2", `{`+echo+`}`))
	require.Equal(t, int64(1), h.direct.Load(), "the plain call ran directly")
	withMeta := roundTrip(call("2", `{"_meta":{"progressToken":7,"claudecode/toolUseId":"t"},`+echo+`}`))
	require.Equal(t, int64(2), h.direct.Load(), "a client's own _meta keys do not change the call")
	viaSDK := roundTrip(call("2", `{"_meta":{"io.modelcontextprotocol/related":1},`+echo+`}`))
	require.Equal(t, int64(2), h.direct.Load(), "a _meta key of the protocol's namespace is the SDK's")
	assert.Equal(t, viaSDK, direct)
	assert.Equal(t, viaSDK, withMeta)
	assert.True(t, strings.HasPrefix(direct, `{"jsonrpc":"2.0","id":2,"result":{"content":[`), direct)

	for _, params := range []string{
		`{"name":"nope","arguments":{}}`,                  // the SDK's unknown tool error
		`{"Name":"echo","arguments":{}}`,                  // the SDK matches keys exactly
		`{"name":"echo","name":"fail","arguments":{}}`,    // a duplicate key
		`{"name":"echo","arguments":[1]}`,                 // arguments that are not an object
		`{"name":"echo","arguments":{},"task":{"ttl":1}}`, // a key the direct path does not know
	} {
		resp := roundTrip(call(`"k"`, params))
		assert.Equal(t, int64(2), h.direct.Load(), "%s is the SDK's", params)
		assert.True(t, strings.HasPrefix(resp, `{"jsonrpc":"2.0","id":"k",`), resp)
	}
	require.NoError(t, inW.Close())
	<-done
}
