package charset

import (
	"errors"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"
)

// windows1252 is windows-1252 as the WHATWG Encoding Standard defines it (docs/encodings.md):
// x/text's charmap.Windows1252 leaves 81, 8D, 8F, 90 and 9D undefined, the standard's index maps
// each to the C1 control of the same value (U+0081, ...), so every byte is a character and
// round-trips.
var windows1252 encoding.Encoding = win1252{}

var (
	win1252Decode [256]rune
	win1252Encode = map[rune]byte{}
)

func init() {
	for b := range 256 {
		r := charmap.Windows1252.DecodeByte(byte(b))
		if r == utf8.RuneError {
			r = rune(b)
		}
		win1252Decode[b] = r
		if b >= 0x80 {
			win1252Encode[r] = byte(b)
		}
	}
}

var errWin1252 = errors.New("windows-1252: character not in the charset")

type win1252 struct{}

func (win1252) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: win1252Decoder{}}
}

func (win1252) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: win1252Encoder{}}
}

type win1252Decoder struct{ transform.NopResetter }

func (win1252Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		r := win1252Decode[src[nSrc]]
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc++
	}
	return nDst, nSrc, nil
}

type win1252Encoder struct{ transform.NopResetter }

func (win1252Encoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		if c := src[nSrc]; c < utf8.RuneSelf {
			dst[nDst] = c
			nDst, nSrc = nDst+1, nSrc+1
			continue
		}
		if !atEOF && !utf8.FullRune(src[nSrc:]) {
			return nDst, nSrc, transform.ErrShortSrc
		}
		r, n := utf8.DecodeRune(src[nSrc:])
		b, ok := win1252Encode[r]
		if !ok || r == utf8.RuneError && n == 1 {
			return nDst, nSrc, errWin1252
		}
		dst[nDst] = b
		nDst, nSrc = nDst+1, nSrc+n
	}
	return nDst, nSrc, nil
}
