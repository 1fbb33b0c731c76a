// Package jsonstr appends strings as JSON string literals, byte for byte as json.Marshal encodes a
// string (HTML escaping on, as the MCP SDK encodes its messages): `\"`, `\\`, the short escapes
// `\b`, `\f`, `\n`, `\r` and `\t`, `\u00xx` (lowercase hex) for the other control bytes and for `<`,
// `>` and `&`, `\ufffd` for each byte of invalid UTF-8, and `\u2028`/`\u2029` for the two separators.
//
// It exists for speed: the text of a read is a line break every few dozen bytes, where
// encoding/json's byte-at-a-time loop spends most of a tools/call's encoding time. Append finds
// the next byte to escape eight bytes at a time (BenchmarkAppend beside it measures the two;
// FuzzAppend holds it to encoding/json's output).
package jsonstr
