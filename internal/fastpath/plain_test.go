package fastpath_test

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/fastpath"
)

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
		p, ok := fastpath.PlainCall(json.RawMessage(tc.params))
		assert.Equal(t, tc.ok, ok, tc.params)
		if tc.ok {
			assert.Equal(t, tc.name, p.Name, tc.params)
			assert.Equal(t, tc.args, string(p.Arguments), tc.params)
		}
	}
	p, ok := fastpath.PlainCall(json.RawMessage(`{"name":"a","_meta":{"progressToken":"p","k":[1]}}`))
	require.True(t, ok)
	assert.Equal(t, mcp.Meta{"progressToken": "p", "k": []any{1.0}}, p.Meta, "the _meta reaches the call as the SDK decodes it")
}

// FuzzPlainCall holds PlainCall to encoding/json: what it accepts is an object of a "name" string
// and, maybe, "arguments" and "_meta", and it reads them as encoding/json does.
func FuzzPlainCall(f *testing.F) {
	for _, s := range []string{`{"name":"read","arguments":{"file_path":"/a"}}`, `{"name":"\u00e9"}`, `{"name":"a","x":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := fastpath.PlainCall(json.RawMessage(s))
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
