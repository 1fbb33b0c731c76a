package gitconfig

import (
	"fmt"
	"strings"
)

// reader is git's get_next_char over a byte slice: CRLF reads as LF, and the end reads as
// an endless run of LF with eof set.
type reader struct {
	b    []byte
	i    int
	eof  bool
	line int
}

func (r *reader) next() byte {
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
func (r *reader) skipLine() {
	if r.i > 0 && r.b[r.i-1] == '\n' {
		return
	}
	for !r.eof && r.next() != '\n' {
	}
}

func (r *reader) fail(what string) error {
	return fmt.Errorf("%w: %s at line %d", ErrSyntax, what, r.line)
}

// header reads a section header after "[": "[name]", "[name.sub]" (legacy, lower-cased) or
// `[name "sub"]` (in the quoted subsection a backslash takes the next character as itself).
func (r *reader) header() (section, sub string, hasSub, ok bool) {
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
		case isSpace(c):
			s, d, ok := r.quotedSub(name.String(), c)
			return s, d, true, ok
		case !isKeyChar(c) && c != '.':
			return "", "", false, false
		}
		name.WriteByte(toLower(c))
	}
}

// quotedSub reads the rest of `[base "sub"]` after the white space c.
func (r *reader) quotedSub(base string, c byte) (section, sub string, ok bool) {
	for isSpace(c) {
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
func (r *reader) variable(c byte) (Entry, bool) {
	var name strings.Builder
	name.WriteByte(toLower(c))
	for {
		c = r.next()
		if r.eof || !isKeyChar(c) {
			break
		}
		name.WriteByte(toLower(c))
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	e := Entry{Key: name.String()}
	if c == '\n' {
		return e, true
	}
	if c != '=' {
		return e, false
	}
	v, ok := r.value()
	e.Value, e.HasValue = v, true
	return e, ok
}

// value reads a value up to the end of its line (git's parse_value).
func (r *reader) value() (string, bool) {
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
		if isSpace(c) && !quote {
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

// isSpace is git's isspace (sane_ctype): space, tab, LF and CR.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isKeyChar(c byte) bool { return isAlpha(c) || (c >= '0' && c <= '9') || c == '-' }

func toLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
