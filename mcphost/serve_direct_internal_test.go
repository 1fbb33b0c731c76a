package mcphost

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/mcpstdio"
)

// A plain tools/call on stdio is run outside the SDK, and its response is byte for byte the one the
// SDK path gives the same call (sent with a "_meta" key of the protocol's namespace, which the
// direct path leaves to the SDK); the shapes the SDK treats differently go to the SDK and keep its
// answers.
func TestServeDirectCallsMatchTheSDK(t *testing.T) {
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

func TestPlainCall(t *testing.T) {
	for _, tc := range []struct {
		params, name, args string
		ok                 bool
	}{
		{`{"name":"read","arguments":{"file_path":"/a"}}`, "read", `{"file_path":"/a"}`, true},
		{`{"arguments":{},"name":"re\u0061d"}`, "read", `{}`, true},
		{` { "name" : "read" } `, "read", ``, true},
		{`{"name":"read","arguments":null}`, "read", `null`, true},
		{`{}`, "", "", false},
		{`{"name":1}`, "", "", false},
		{`{"name":"a","arguments":"x"}`, "", "", false},
		{`{"name":"a","_meta":{"progressToken":"p"}}`, "a", "", true},
		{`{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, "", "", false},
		{`{"name":"a","_meta":[]}`, "", "", false},
		{`{"name":"a","_meta":{},"_meta":{}}`, "", "", false},
		{`{"name":"a","arguments":{},"arguments":{}}`, "", "", false},
		{`{"name":"a\xff"}`, "", "", false},
		{`[{"name":"a"}]`, "", "", false},
		{`{"name":"a"} {}`, "", "", false},
		{`{"name":"a"`, "", "", false},
	} {
		p, ok := plainCall(json.RawMessage(tc.params))
		assert.Equal(t, tc.ok, ok, tc.params)
		if tc.ok {
			assert.Equal(t, tc.name, p.Name, tc.params)
			assert.Equal(t, tc.args, string(p.Arguments), tc.params)
		}
	}
	p, ok := plainCall(json.RawMessage(`{"name":"a","_meta":{"progressToken":"p","k":[1]}}`))
	require.True(t, ok)
	assert.Equal(t, mcp.Meta{"progressToken": "p", "k": []any{1.0}}, p.Meta, "the _meta reaches the call as the SDK decodes it")
}

// FuzzPlainCall holds plainCall to encoding/json: what it accepts is an object of a "name" string
// and, maybe, "arguments" and "_meta", and it reads them as encoding/json does.
func FuzzPlainCall(f *testing.F) {
	for _, s := range []string{`{"name":"read","arguments":{"file_path":"/a"}}`, `{"name":"\u00e9"}`, `{"name":"a","x":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := plainCall(json.RawMessage(s))
		if !ok {
			return
		}
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(s), &m))
		for k := range m {
			require.Contains(t, []string{"name", "arguments", "_meta"}, k)
		}
		var want mcp.CallToolParamsRaw
		require.NoError(t, json.Unmarshal([]byte(s), &want))
		require.Equal(t, want.Name, p.Name)
		require.Equal(t, string(want.Arguments), string(p.Arguments))
		require.Equal(t, want.Meta, p.Meta)
	})
}
