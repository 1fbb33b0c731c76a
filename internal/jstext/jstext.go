// Package jstext holds the JavaScript-compatible text rules the model-facing
// code shares, so that each has one behaviour: here, what
// String.prototype.trim removes.
package jstext

import "strings"

// JSSpace reports whether r is one of the characters JavaScript's String.prototype.trim removes:
// ECMA-262 WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP U+FEFF and the Space_Separator class) and
// LineTerminator (LF, CR, LS, PS). U+0085 and U+200B are not among them. Tools use it wherever the
// reference trims a model-supplied string.
func JSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// IsBlank reports whether s is empty after JavaScript's trim (see JSSpace).
//
//	if jstext.IsBlank(args.FilePath) {
//		return errors.New("file_path must be a non-empty string")
//	}
func IsBlank(s string) bool { return strings.TrimLeftFunc(s, JSSpace) == "" }
