// Package termtext holds the one rule by which Cordon shows a text that someone else chose (a
// model, a file name on disk) to a person: on a terminal, in a log line, in an approval prompt.
// Every character that could change how the text reads — control and format characters, ANSI
// escapes (ESC), BEL, CR and LF, bidirectional overrides, line and paragraph separators, invalid
// UTF-8 — is shown as an escape such as \x1b, \r, \n or \u202e; graphic characters (letters,
// marks, numbers, punctuation, symbols, spaces) and the backslash are shown as themselves. So a
// name cannot set a terminal's title, clear its screen or forge a line of the output.
//
//	fmt.Fprintln(w, termtext.Escape(record.Display))
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape is s with every character that is not graphic shown as an escape (Rune).
func Escape(s string) string {
	i := 0
	for i < len(s) {
		esc, size := Rune(s[i:])
		if len(esc) != size {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		esc, size := Rune(s[i:])
		b.WriteString(esc)
		i += size
	}
	return b.String()
}

// Rune renders the first character of s, and returns its size in s: a graphic character as
// itself, anything else as an escape (\t, \n, \r, \xNN for other ASCII controls and for an
// invalid byte, \uNNNN or \UNNNNNNNN).
func Rune(s string) (string, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf(`\x%02x`, s[0]), 1
	case unicode.IsGraphic(r):
		return s[:size], size
	case r == '\t':
		return `\t`, size
	case r == '\n':
		return `\n`, size
	case r == '\r':
		return `\r`, size
	case r < utf8.RuneSelf:
		return fmt.Sprintf(`\x%02x`, r), size
	case r <= 0xFFFF:
		return fmt.Sprintf(`\u%04x`, r), size
	}
	return fmt.Sprintf(`\U%08x`, r), size
}
