package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
	"unsafe"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// AppendString appends s to dst as a JSON string literal, quotes included (see the package doc).
func AppendString(dst []byte, s string) []byte {
	dst = slices.Grow(dst, len(s)+len(s)/16+10) // the text, some escapes, the quotes
	dst = append(dst, '"')
	p := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	i := 0
	for {
		// The scan copies as it goes, a word at a time: a read window escapes a byte every 30 or
		// so, and a copy call per run between escapes was a third of the encoding's time. The
		// bytes of a word past its first escape are spare capacity, written again after it.
		for ; i+8 <= len(p); i += 8 {
			x := binary.LittleEndian.Uint64(p[i:])
			if m := escapeMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				dst = binary.LittleEndian.AppendUint64(dst, x)[:len(dst)+k]
				i += k
				goto found
			}
			dst = binary.LittleEndian.AppendUint64(dst, x)
		}
		for ; i < len(p); i++ {
			if b := p[i]; b < 0x20 || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' || b >= utf8.RuneSelf {
				goto found
			}
			dst = append(dst, p[i])
		}
		return append(dst, '"')
	found:
		b := p[i]
		if b >= utf8.RuneSelf {
			c, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case c == utf8.RuneError && size == 1:
				dst = append(dst, `\ufffd`...)
			case c == '\u2028' || c == '\u2029':
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			default:
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch b {
		case '\\', '"':
			dst = append(dst, '\\', b)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
		}
		i++
	}
}

const hex = "0123456789abcdef"

// escapeMask returns x (8 bytes of a text, little-endian) with the high bit set of each byte that
// may need escaping (a control byte, '"', '\\', '<', '>', '&', or any byte of a multi-byte
// sequence), and possibly of bytes above such a byte: the subtractions' borrows can set bits only
// above a byte that is itself marked, so the lowest bit set is the first such byte.
//
// '"' (0x22) and '&' (0x26) differ in one bit (0x04), as '<' (0x3C) and '>' (0x3E) do (0x02): with
// that bit set, each pair is one byte to compare, and no other byte becomes it.
func escapeMask(x uint64) uint64 {
	return ((x - 0x20*ones) | ((x | 0x04*ones) ^ '&'*ones - ones) | ((x | 0x02*ones) ^ '>'*ones - ones) |
		(x ^ '\\'*ones - ones) | x) & highs
}
