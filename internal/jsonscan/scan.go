// Package jsonscan reads and writes JSON text without encoding/json's passes over it.
//
// Reading, it finds the parts of JSON text without decoding it: the end of a value, the members of
// an object, a key compared or decoded. It is for text the caller does not decode whole (an HTTP
// body whose ids are rewritten, a stdio frame already checked by json.Valid): a container's end is
// found by its brackets and quotes and what it holds is not checked, so a caller that needs valid
// JSON checks it first (json.Valid) or leaves that to its decoder.
//
// Writing, AppendString appends a string as a JSON string literal, byte for byte as json.Marshal
// encodes a string (HTML escaping on, as the MCP SDK encodes its messages): `\"`, `\\`, the short
// escapes `\b`, `\f`, `\n`, `\r` and `\t`, `\u00xx` (lowercase hex) for the other control bytes
// and for `<`, `>` and `&`, `\ufffd` for each byte of invalid UTF-8, and `\u2028`/`\u2029` for the
// two separators. It exists for speed: the text of a read is a line break every few dozen bytes,
// where encoding/json's byte-at-a-time loop spends most of a tools/call's encoding time;
// AppendString finds the next byte to escape eight bytes at a time (BenchmarkAppendString measures
// the two; FuzzAppendString holds it to encoding/json's output).
package jsonscan

import (
	"bytes"
	"encoding/json"
)

// SkipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the end of the JSON string whose opening quote is b[i] (the index after its
// closing quote), or -1 when it is not closed.
func SkipString(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		k += j
		n := 0
		for m := k - 1; m > i && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return k + 1
		}
		j = k + 1
	}
}

// SkipValue returns the end of the JSON value that starts at b[i], or -1. A string is skipped
// whole, a container to its matching bracket, a number or literal to the delimiter after it.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				e := SkipString(b, i)
				if e < 0 {
					return -1
				}
				i = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	j := i
	for j < len(b) && !delimiter(b[j]) {
		j++
	}
	return j
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

// Members calls fn with each member of the object whose opening brace is b[i], in order: its key
// as JSON text (quotes included) and its value as b[vs:ve]. It returns the index after the closing
// brace, or -1 when the object is not well formed there or fn returned false.
func Members(b []byte, i int, fn func(key []byte, vs, ve int) bool) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		ke := SkipString(b, i)
		if ke < 0 {
			return -1
		}
		j := SkipSpace(b, ke)
		if j >= len(b) || b[j] != ':' {
			return -1
		}
		vs := SkipSpace(b, j+1)
		ve := SkipValue(b, vs)
		if ve < 0 || !fn(b[i:ke], vs, ve) {
			return -1
		}
		if i = SkipSpace(b, ve); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = SkipSpace(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// String decodes the JSON string literal lit (quotes included): a literal without escapes is its
// bytes (invalid UTF-8 kept as it is, where encoding/json would put U+FFFD), one with escapes is
// decoded by encoding/json; ok is false when it does not decode.
func String(lit []byte) (string, bool) {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1]), true
	}
	var s string // only an escaped literal pays for the decoder's pointer
	err := json.Unmarshal(lit, &s)
	return s, err == nil
}

// KeyIs reports whether the JSON string lit (a member's key, its text) is name.
func KeyIs(lit []byte, name string) bool {
	if bytes.IndexByte(lit, '\\') < 0 {
		return len(lit) == len(name)+2 && string(lit[1:len(lit)-1]) == name
	}
	s, ok := String(lit)
	return ok && s == name
}

// IDKey identifies a JSON-RPC id (its JSON text) for matching: a string by its value (decoded by
// encoding/json, so ids that decode alike match), a number by its text (1.5 is not 1.50).
func IDKey(id []byte) string {
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(id)
}
