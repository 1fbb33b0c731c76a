package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// AppendString appends s to dst as a JSON string literal, quotes included (see the package doc).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := nextEscape(s, 0); i < len(s); i = nextEscape(s, i) {
		b := s[i]
		if b >= utf8.RuneSelf {
			c, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case c == utf8.RuneError && size == 1:
				dst = append(append(dst, s[start:i]...), `\ufffd`...)
			case c == '\u2028' || c == '\u2029':
				dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hex[c&0xF])
			default:
				i += size
				continue
			}
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
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
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

const hex = "0123456789abcdef"

// nextEscape returns the index of the first byte at or after i that may need escaping (a control byte,
// '"', '\\', '<', '>', '&', or any byte of a multi-byte sequence), or len(s).
func nextEscape(s string, i int) int {
	p := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	for ; i+8 <= len(p); i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		// A byte below 0x20, equal to '"' or '\\', or with its high bit set gets its high bit set
		// in m. The subtractions' borrows can set bits only above a byte that is itself marked, so
		// the lowest bit of m is the first such byte.
		if m := ((x - 0x20*ones) | (x ^ '"'*ones - ones) | (x ^ '\\'*ones - ones) |
			(x ^ '<'*ones - ones) | (x ^ '>'*ones - ones) | (x ^ '&'*ones - ones) | x) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(p); i++ {
		if b := p[i]; b < 0x20 || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' || b >= utf8.RuneSelf {
			return i
		}
	}
	return len(p)
}
