package sandboxpolicy

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// JSONString quotes s as JavaScript's JSON.stringify does: '"' and '\' are escaped, the control
// characters U+0000..U+001F become \b, \t, \n, \f, \r or \u00xx (lower-case hex), and everything
// else, '<', '>', '&', U+2028 and U+2029 included, is kept as is. Bytes that are not valid UTF-8
// become U+FFFD, as a file name decoded by Node would. (encoding/json differs on U+2028/U+2029
// and, without SetEscapeHTML(false), on '<', '>' and '&'.)
func JSONString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
