package mcpstdio_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
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
		{`{"name":"a","name":"a"}`, "", "", false},
		{`{"name":"a","n\u0061me":"a"}`, "", "", false},
		{`{"n\u0061me":"a","\u0061rguments":{}}`, "a", `{}`, true},
		{`{"Name":"a"}`, "", "", false},
		{`{"name":"a","Arguments":{}}`, "", "", false},
		{`{"name":"a","x":1}`, "", "", false},
		{`{"name":"a","arguments":[]}`, "", "", false},
		{`{"name":"a","arguments":1}`, "", "", false},
		{`{"name":"a","_meta":null}`, "", "", false},
		{`{"name":"a","_meta":{"io.modelcontextprotocol/x":1,"k":2}}`, "", "", false},
		{`{"name":"\ud800"}`, "\uFFFD", "", true},
		{`{"name":"a}\"{","arguments":{"k":"}\"{[","l":[{"m":"]"}]}}`, "a}\"{", `{"k":"}\"{[","l":[{"m":"]"}]}`, true},
		{` { "name" : "a" , "arguments" : { "x" : [ 1 , 2 ] } , "_meta" : { } } `, "a", `{ "x" : [ 1 , 2 ] }`, true},
		{`{"arguments":null,"name":"a"}`, "a", `null`, true},
		{`{"name":"a",}`, "", "", false},
		{`{,"name":"a"}`, "", "", false},
		{`{"name" "a"}`, "", "", false},
		{`{"name":}`, "", "", false},
		{`{"name":"a"}}`, "", "", false},
		{`{"name":"a","arguments":{}`, "", "", false},
		{`{"name":"a","arguments":{"x":"}`, "", "", false},
		{`"name"`, "", "", false},
		{``, "", "", false},
	} {
		p, ok := mcpstdio.PlainCall(json.RawMessage(tc.params))
		assert.Equal(t, tc.ok, ok, tc.params)
		if tc.ok {
			assert.Equal(t, tc.name, p.Name, tc.params)
			assert.Equal(t, tc.args, string(p.Arguments), tc.params)
		}
	}
	p, ok := mcpstdio.PlainCall(json.RawMessage(`{"name":"a","_meta":{"progressToken":"p","k":[1]}}`))
	require.True(t, ok)
	assert.Equal(t, mcp.Meta{"progressToken": "p", "k": []any{1.0}}, p.Meta, "the _meta reaches the call as the SDK decodes it")
}

// FuzzPlainCall holds PlainCall to encoding/json on valid JSON (what the stdio transport hands
// it): what it accepts is an object of a "name" string and, maybe, "arguments" and "_meta", and it
// reads them as encoding/json does; and it accepts what the json.Decoder walk it replaced
// (plainCallDecoder) accepts, with the same params.
func FuzzPlainCall(f *testing.F) {
	for _, s := range []string{`{"name":"read","arguments":{"file_path":"/a"}}`, `{"name":"\u00e9"}`, `{"name":"a","x":1}`,
		`{"n\u0061me":"a","_meta":{"progressToken":1}}`, `{"name":"a","arguments":{"k":"}\"{[","l":[{"m":"]"}]}}`,
		` { "name" : "a" , "arguments" : null } `, `{"name":"a","name":"b"}`, `{"name":"a\\","arguments":{"\\":"\\\""}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		p, ok := mcpstdio.PlainCall(json.RawMessage(s))
		old, oldOK := plainCallDecoder(json.RawMessage(s))
		require.Equal(t, oldOK, ok, s)
		if !ok {
			return
		}
		require.Equal(t, old, p, s)
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

// plainCallDecoder is PlainCall as a json.Decoder walk, as it was before it scanned the object.
func plainCallDecoder(params json.RawMessage) (p *mcp.CallToolParamsRaw, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(params))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	p = &mcp.CallToolParamsRaw{}
	var seenName, seenArgs, seenMeta bool
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil, false
		}
		switch k {
		case "name":
			if seenName || raw[0] != '"' || !utf8.Valid(raw) || json.Unmarshal(raw, &p.Name) != nil {
				return nil, false
			}
			seenName = true
		case "arguments":
			if seenArgs || (raw[0] != '{' && string(raw) != "null") {
				return nil, false
			}
			seenArgs, p.Arguments = true, raw
		case "_meta":
			if seenMeta || raw[0] != '{' || json.Unmarshal(raw, &p.Meta) != nil {
				return nil, false
			}
			for k := range p.Meta {
				if strings.HasPrefix(k, "io.modelcontextprotocol/") {
					return nil, false
				}
			}
			seenMeta = true
		default:
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || !seenName {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return p, true
}
