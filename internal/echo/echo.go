// Package echo bounds what a message repeats back of a model-chosen string (a line of a patch, a
// path, a glob): at most MaxBytes, cut at a character boundary, the cut said
// (docs/apply_patch.md "Errors").
//
//	msg := fmt.Sprintf("invalid hunk at line %d: %q", n, echo.String(line, echo.MaxBytes))
package echo

import "fmt"

// MaxBytes is the most bytes of one model-chosen string a message repeats back.
const MaxBytes = 200

// String is s when it has at most max bytes; otherwise its first bytes (cut at a character
// boundary) and a marker saying how many bytes were cut: `[cut: <n> more bytes]`.
func String(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + fmt.Sprintf("[cut: %d more bytes]", len(s)-i)
}
