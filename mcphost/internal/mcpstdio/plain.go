package mcpstdio

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// PlainCall reads the params of a tools/call made of a "name" string in valid UTF-8 and, optionally,
// an "arguments" object or null and a "_meta" object with no key in the protocol's reserved
// "io.modelcontextprotocol/" namespace, each once; ok is false for anything else. p.Arguments
// shares params' memory.
//
// params must be valid JSON: the stdio transport offers a call to its Direct only after
// json.Valid passed the whole line (mcpstdio parseMessage), params being a member of it. So
// PlainCall checks the shape of the object, not the syntax of what it holds: it finds the end of a
// value by its brackets and quotes (Members), decodes a name or key that has an escape with
// encoding/json, and _meta into the map the call carries.
func PlainCall(params json.RawMessage) (p *mcp.CallToolParamsRaw, ok bool) {
	p = &mcp.CallToolParamsRaw{}
	var seenName, seenArgs, seenMeta bool
	ok = Members(params, func(k string, raw []byte) bool {
		switch k {
		case "name":
			if seenName || raw[0] != '"' || !utf8.Valid(raw) {
				return false
			}
			if p.Name, seenName = jsonscan.String(raw); !seenName {
				return false
			}
		case "arguments":
			if seenArgs || (raw[0] != '{' && string(raw) != "null") {
				return false
			}
			seenArgs, p.Arguments = true, raw
		case "_meta":
			if seenMeta || raw[0] != '{' || json.Unmarshal(raw, &p.Meta) != nil {
				return false
			}
			for k := range p.Meta {
				if strings.HasPrefix(k, "io.modelcontextprotocol/") {
					return false
				}
			}
			seenMeta = true
		default:
			return false
		}
		return true
	})
	if !ok || !seenName {
		return nil, false
	}
	return p, true
}

// Members calls fn with each member of the JSON object obj, in order: its key (decoded with
// encoding/json when it has an escape) and its value's text (a part of obj, capacity bounded). It
// reports false when obj is not an object or fn returned false. obj must be valid JSON: Members
// finds the end of a value by its quotes and brackets (internal/jsonscan) and does not check what
// it holds.
func Members(obj []byte, fn func(key string, value []byte) bool) bool {
	end := jsonscan.Members(obj, jsonscan.SkipSpace(obj, 0), func(key []byte, vs, ve int) bool {
		k, ok := jsonscan.String(key)
		return ok && fn(k, obj[vs:ve:ve])
	})
	return end >= 0 && jsonscan.SkipSpace(obj, end) == len(obj)
}
