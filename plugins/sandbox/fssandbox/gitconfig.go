package fssandbox

import (
	"bytes"
	"fmt"
	"strings"
)

// configEntry is one variable of a git config file. section and key are lower-cased; subsection
// is as written in the quoted form ([diff "x"]) and lower-cased in the legacy dotted one
// ([diff.x]), as git keeps it; hasSub tells an empty subsection ([a ""]) from none. A variable
// written without "=" (a boolean true) has no value.
type configEntry struct {
	section, subsection, key string
	value                    string
	hasSub, hasValue         bool
}

// errConfigSyntax is wrapped by parseGitConfig's error.
var errConfigSyntax = fmt.Errorf("bad git config")

// parseGitConfig parses data as git parses a config file (config.c, git_parse_source): sections
// and quoted subsections, case-insensitive names, comments from "#" or ";", values with
// surrounding white space trimmed, quotes removed, the escapes \\ \" \n \t \b and a
// backslash-newline continuation. A variable before any section has an empty section.
//
// On a syntax error (where git stops with "bad config line" and refuses the whole file) it
// returns the first error, and the variables of every line it could read, the bad ones skipped:
// git runs nothing from such a file, so what its other lines name is protected for nothing, but
// a parse that stopped where git does not would protect too little.
func parseGitConfig(data []byte) ([]configEntry, error) {
	r := &configReader{b: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), line: 1}
	var out []configEntry
	var first error
	var section, sub string
	hasSub, comment := false, false
	fail := func(what string) {
		if first == nil {
			first = r.fail(what)
		}
		r.skipLine()
	}
	for {
		c := r.next()
		switch {
		case c == '\n':
			if r.eof {
				return out, first
			}
			comment = false
			continue
		case comment || isConfigSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			s, d, h, ok := r.header()
			if !ok {
				fail("bad section header")
				continue
			}
			section, sub, hasSub = s, d, h
			continue
		case !isASCIIAlpha(c):
			fail("bad config line")
			continue
		}
		e, ok := r.variable(c)
		if !ok {
			fail("bad config line")
			continue
		}
		e.section, e.subsection, e.hasSub = section, sub, hasSub
		out = append(out, e)
	}
}

// configReader is git's get_next_char over a byte slice: CRLF reads as LF, and the end reads as
// an endless run of LF with eof set.
type configReader struct {
	b    []byte
	i    int
	eof  bool
	line int
}

func (r *configReader) next() byte {
	if r.i >= len(r.b) {
		r.eof = true
		return '\n'
	}
	c := r.b[r.i]
	r.i++
	if c == '\r' && r.i < len(r.b) && r.b[r.i] == '\n' {
		r.i++
		c = '\n'
	}
	if c == '\n' {
		r.line++
	}
	return c
}

// skipLine reads to the end of the line, unless the last byte read ended it.
func (r *configReader) skipLine() {
	if r.i > 0 && r.b[r.i-1] == '\n' {
		return
	}
	for !r.eof && r.next() != '\n' {
	}
}

func (r *configReader) fail(what string) error {
	return fmt.Errorf("%w: %s at line %d", errConfigSyntax, what, r.line)
}

// header reads a section header after "[": "[name]", "[name.sub]" (legacy, lower-cased) or
// `[name "sub"]` (in the quoted subsection a backslash takes the next character as itself).
func (r *configReader) header() (section, sub string, hasSub, ok bool) {
	var name strings.Builder
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", "", false, false
		case c == ']':
			if name.Len() == 0 {
				return "", "", false, false
			}
			s, d, dotted := strings.Cut(name.String(), ".")
			return s, d, dotted, true
		case isConfigSpace(c):
			s, d, ok := r.quotedSub(name.String(), c)
			return s, d, true, ok
		case !isKeyChar(c) && c != '.':
			return "", "", false, false
		}
		name.WriteByte(toLowerASCII(c))
	}
}

// quotedSub reads the rest of `[base "sub"]` after the white space c.
func (r *configReader) quotedSub(base string, c byte) (section, sub string, ok bool) {
	for isConfigSpace(c) {
		if c == '\n' {
			return "", "", false
		}
		c = r.next()
	}
	if c != '"' {
		return "", "", false
	}
	var b strings.Builder
	for {
		c := r.next()
		if c == '\n' {
			return "", "", false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = r.next(); c == '\n' {
				return "", "", false
			}
		}
		b.WriteByte(c)
	}
	if r.next() != ']' {
		return "", "", false
	}
	section, dotted, isDotted := strings.Cut(base, ".")
	if isDotted {
		return section, dotted + "." + b.String(), true
	}
	return section, b.String(), true
}

// variable reads a variable whose name starts with c: the name, then "= value" or nothing.
func (r *configReader) variable(c byte) (configEntry, bool) {
	var name strings.Builder
	name.WriteByte(toLowerASCII(c))
	for {
		c = r.next()
		if r.eof || !isKeyChar(c) {
			break
		}
		name.WriteByte(toLowerASCII(c))
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	e := configEntry{key: name.String()}
	if c == '\n' {
		return e, true
	}
	if c != '=' {
		return e, false
	}
	v, ok := r.value()
	e.value, e.hasValue = v, true
	return e, ok
}

// value reads a value up to the end of its line (git's parse_value).
func (r *configReader) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	trim := -1 // length to cut trailing white space back to; -1: none pending
	for {
		c := r.next()
		if c == '\n' {
			if quote {
				return "", false
			}
			if trim >= 0 {
				v = v[:trim]
			}
			return string(v), true
		}
		if comment {
			continue
		}
		if isConfigSpace(c) && !quote {
			if trim < 0 {
				trim = len(v)
			}
			if len(v) > 0 {
				v = append(v, ' ') // git keeps unquoted white space as one space each
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		trim = -1
		switch c {
		case '\\':
			switch c = r.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// isConfigSpace is git's isspace (sane_ctype): space, tab, LF and CR.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isASCIIAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isKeyChar(c byte) bool { return isASCIIAlpha(c) || (c >= '0' && c <= '9') || c == '-' }

func toLowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
