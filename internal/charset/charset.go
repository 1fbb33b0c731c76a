package charset

import (
	"fmt"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// Charset is a text encoding a file is stored in. The zero value is UTF-8.
type Charset struct {
	name string
	enc  encoding.Encoding // nil for UTF-8
}

// UTF8 is the default charset.
var UTF8 = Charset{}

var (
	utf16LE = Charset{"utf-16le", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)}
	utf16BE = Charset{"utf-16be", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)}
	// latin1 is .editorconfig's latin1: ISO-8859-1 proper, every byte a character (the WHATWG
	// label "latin1" names windows-1252 instead).
	latin1 = Charset{"iso-8859-1", charmap.ISO8859_1}
)

// Name is the charset's WHATWG name ("utf-8", "shift_jis", ...).
func (c Charset) Name() string {
	if c.enc == nil {
		return "utf-8"
	}
	return c.name
}

// IsUTF8 reports whether c is UTF-8.
func (c Charset) IsUTF8() bool { return c.enc == nil }

// Lookup returns the charset a WHATWG Encoding Standard label names (case-insensitive, as
// "windows-1252", "sjis", "gbk", "utf-16le"). The stateful iso-2022-jp and the replacement
// encoding are refused: their text cannot be edited in place.
func Lookup(label string) (Charset, error) {
	e, err := htmlindex.Get(label)
	if err != nil {
		return Charset{}, fmt.Errorf("unknown charset %q (a WHATWG Encoding Standard label, such as windows-1252 or shift_jis)", label)
	}
	name, err := htmlindex.Name(e)
	if err != nil {
		return Charset{}, fmt.Errorf("unknown charset %q", label)
	}
	switch name {
	case "utf-8":
		return UTF8, nil
	case "utf-16le":
		return utf16LE, nil
	case "utf-16be":
		return utf16BE, nil
	case "windows-1252":
		return Charset{name, windows1252}, nil
	case "iso-2022-jp", "replacement":
		return Charset{}, fmt.Errorf("charset %q is not supported (stateful)", label)
	}
	return Charset{name, e}, nil
}

// SniffBOM returns the charset a leading byte order mark declares and the mark's length: EF BB
// BF is UTF-8, FF FE UTF-16LE, FE FF UTF-16BE. ok is false without a mark.
func SniffBOM(head []byte) (c Charset, n int, ok bool) {
	switch {
	case len(head) >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF:
		return UTF8, 3, true
	case len(head) >= 2 && head[0] == 0xFF && head[1] == 0xFE:
		return utf16LE, 2, true
	case len(head) >= 2 && head[0] == 0xFE && head[1] == 0xFF:
		return utf16BE, 2, true
	}
	return Charset{}, 0, false
}
