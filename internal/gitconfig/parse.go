package gitconfig

import (
	"bytes"
	"errors"
)

// Entry is one variable of a git config file. Section and Key are lower-cased; Subsection is as
// written in the quoted form ([diff "x"]) and lower-cased in the legacy dotted one ([diff.x]), as
// git keeps it; HasSub tells an empty subsection ([a ""]) from none. A variable written without
// "=" (a boolean true) has no value: HasValue is false and Value empty.
type Entry struct {
	Section, Subsection, Key string
	Value                    string
	HasSub, HasValue         bool
}

// Name spells e's name as `git config --list` prints it: section[.subsection].key, or the key
// alone for a variable before any section.
func (e Entry) Name() string {
	if e.Section == "" && !e.HasSub {
		return e.Key
	}
	if e.HasSub {
		return e.Section + "." + e.Subsection + "." + e.Key
	}
	return e.Section + "." + e.Key
}

// ErrSyntax is wrapped by the error Parse returns for a file git refuses.
var ErrSyntax = errors.New("bad git config")

// Parse parses data as git parses a config file (see the package doc). On a syntax error it
// returns an error wrapping ErrSyntax that names the first bad line, and the variables of every
// line it could read, the bad ones skipped.
func Parse(data []byte) ([]Entry, error) {
	r := &reader{b: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), line: 1}
	var out []Entry
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
		case comment || isSpace(c):
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
		case !isAlpha(c):
			fail("bad config line")
			continue
		}
		e, ok := r.variable(c)
		if !ok {
			fail("bad config line")
			continue
		}
		e.Section, e.Subsection, e.HasSub = section, sub, hasSub
		out = append(out, e)
	}
}
