package fastpath

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
			if seenName || raw[0] != '"' || !utf8.Valid(raw) || !decodeString(raw, &p.Name) {
				return false
			}
			seenName = true
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
// finds the end of a value by its quotes and brackets and does not check what it holds.
func Members(obj []byte, fn func(key string, value []byte) bool) bool {
	s := scan{b: obj}
	if !s.take('{') {
		return false
	}
	for more := !s.take('}'); more; {
		k, ok := s.key()
		if !ok || !s.take(':') {
			return false
		}
		s.space()
		raw, ok := s.value()
		if !ok || !fn(k, raw) {
			return false
		}
		if more = s.take(','); !more && !s.take('}') {
			return false
		}
	}
	s.space()
	return s.i == len(s.b)
}

// decodeString decodes a JSON string literal: a literal without escapes is its bytes.
func decodeString(lit []byte, dst *string) bool {
	if bytes.IndexByte(lit, '\\') < 0 {
		*dst = string(lit[1 : len(lit)-1])
		return true
	}
	return json.Unmarshal(lit, dst) == nil
}

// scan walks the members of a JSON object known to be valid JSON (Members).
type scan struct {
	b []byte
	i int
}

func (s *scan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// take consumes c after any whitespace.
func (s *scan) take(c byte) bool {
	if s.space(); s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads a member's key (decoded when it has an escape).
func (s *scan) key() (string, bool) {
	if s.space(); s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	lit, ok := s.value()
	var k string
	if !ok || !decodeString(lit, &k) {
		return "", false
	}
	return k, true
}

// value returns the value at s.i (a string, object or array up to its closing quote or bracket,
// a scalar up to the delimiter after it) and moves past it.
func (s *scan) value() ([]byte, bool) {
	start, depth := s.i, 0
	for ; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '"':
			if s.i = StringEnd(s.b, s.i+1); s.i == len(s.b) {
				return nil, false
			}
		case '{', '[':
			depth++
			continue
		case '}', ']':
			if depth--; depth < 0 { // a scalar's end: the enclosing object's
				return s.b[start:s.i:s.i], s.i > start
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return s.b[start:s.i:s.i], s.i > start
			}
			continue
		default:
			continue
		}
		if depth == 0 { // a string, object or array ends here
			s.i++
			return s.b[start:s.i:s.i], true
		}
	}
	return s.b[start:s.i:s.i], depth == 0 && s.i > start
}

// StringEnd returns the index of the quote that closes the JSON string whose text starts at i
// (after its opening quote), or len(b) when the string is not closed.
func StringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		k := i
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 0 {
			return i
		}
		i++
	}
}
