// Package jsonstr appends strings as JSON string literals, byte for byte as encoding/json encodes
// a string with HTML escaping off (json.Encoder.SetEscapeHTML(false)): `\"`, `\\`, the short
// escapes `\b`, `\f`, `\n`, `\r` and `\t`, `\u00xx` (lowercase hex) for the other control bytes,
// `\ufffd` for each byte of invalid UTF-8, and `\u2028`/`\u2029` for the two separators.
//
// It exists for speed: the text of a read is a line break every few dozen bytes, where
// encoding/json's byte-at-a-time loop spends most of a tools/call's encoding time. Append finds
// the next byte to escape eight bytes at a time (BenchmarkAppend beside it measures the two;
// FuzzAppend holds it to encoding/json's output).
package jsonstr
