package patch

import (
	"strings"
	"unicode"
)

// seek returns the first index at or after start where pattern occurs in lines, or -1. Passes
// of decreasing strictness run over the whole range in turn: exact, trailing whitespace ignored,
// surrounding whitespace ignored, then common Unicode punctuation and spaces normalized to ASCII
// (normalize). With eof the search starts where pattern would end the file, and only there; an
// empty pattern matches at start.
func seek(lines, pattern []string, start int, eof bool) int {
	if len(pattern) == 0 {
		return start
	}
	if len(pattern) > len(lines) {
		return -1
	}
	if eof {
		start = len(lines) - len(pattern)
	}
	for _, eq := range passes {
		for i := start; i+len(pattern) <= len(lines); i++ {
			if matchAt(lines[i:i+len(pattern)], pattern, eq) {
				return i
			}
		}
	}
	return -1
}

// passes are the line comparisons of seek, strictest first.
var passes = []func(a, b string) bool{
	func(a, b string) bool { return a == b },
	func(a, b string) bool {
		return strings.TrimRightFunc(a, unicode.IsSpace) == strings.TrimRightFunc(b, unicode.IsSpace)
	},
	func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) },
	func(a, b string) bool { return normalize(a) == normalize(b) },
}

func matchAt(lines, pattern []string, eq func(a, b string) bool) bool {
	for i, p := range pattern {
		if !eq(lines[i], p) {
			return false
		}
	}
	return true
}

// normalize trims s and maps typographic dashes, quotes and spaces to their ASCII forms.
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, strings.TrimSpace(s))
}
