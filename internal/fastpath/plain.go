package fastpath

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PlainCall reads the params of a tools/call made of a "name" string in valid UTF-8 and, optionally,
// an "arguments" object or null and a "_meta" object with no key in the protocol's reserved
// "io.modelcontextprotocol/" namespace, each once; ok is false for anything else.
func PlainCall(params json.RawMessage) (p *mcp.CallToolParamsRaw, ok bool) {
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
