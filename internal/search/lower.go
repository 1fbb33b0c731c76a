package search

import "encoding/binary"

// lowerInto writes src with ASCII upper-case letters lowered into dst (len(dst) >= len(src)),
// eight bytes at a time.
func lowerInto(dst, src []byte) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		// With the high bits masked off no byte carries into the next: the high bit of
		// b7 + 0x80 - 'A' is set iff b7 >= 'A', that of b7 + 0x80 - 'Z' - 1 iff b7 > 'Z';
		// bytes >= 0x80 are dropped by ^w.
		w7 := w &^ highs
		ge := w7 + ones*(0x80-'A')
		gt := w7 + ones*(0x80-'Z'-1)
		upper := (ge &^ gt) &^ w & highs
		binary.LittleEndian.PutUint64(dst[i:], w|upper>>2)
	}
	for ; i < len(src); i++ {
		c := src[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
}
