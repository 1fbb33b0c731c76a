package search

import (
	"bytes"
	"strings"
)

// rule is one line of an ignore file.
type rule struct {
	negate  bool
	dirOnly bool
	base    bool // no '/' but a trailing one: match the base name at any depth
	glob    *wildPattern
}

// ruleList is the rules of one ignore file, in file order; later rules win.
type ruleList struct {
	rules []rule
}

// parseRules parses an ignore file as git does: a leading UTF-8 BOM is skipped, lines end at '\n'
// (a '\r' before it is dropped), blank lines and lines starting with '#' are skipped, trailing
// spaces are dropped unless escaped with '\', a leading '!' negates ("\!" and "\#" are literal), a
// trailing '/' restricts the rule to directories, and a rule with no other '/' matches the base
// name at any depth (otherwise the path relative to the file's directory, a leading '/' only
// anchoring it). It returns nil when no rule remains.
func parseRules(data []byte) *ruleList {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var l ruleList
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if r, ok := parseRule(string(line)); ok {
			l.rules = append(l.rules, r)
		}
	}
	if len(l.rules) == 0 {
		return nil
	}
	return &l
}

func parseRule(line string) (rule, bool) {
	if line == "" || line[0] == '#' {
		return rule{}, false
	}
	line = trimTrailingSpaces(line)
	var r rule
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	if line == "" {
		return rule{}, false
	}
	r.base = !strings.Contains(line, "/")
	if !r.base {
		line = strings.TrimPrefix(line, "/")
	}
	r.glob = compileWild(line, !r.base)
	return r, true
}

// trimTrailingSpaces drops trailing ' ' bytes that no '\' escapes.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped byte stays
			end = min(i+1, len(s))
		case ' ':
			// a space may be trailing; end stays where the last non-space was
		default:
			end = i + 1
		}
	}
	return s[:end]
}

// decision is the outcome of matching a path against rules.
type decision int8

const (
	undecided decision = iota
	excluded
	included
)

// match returns the decision of the last rule that matches rel (the path relative to the file's
// directory) or undecided.
func (l *ruleList) match(rel string, isDir bool) decision {
	if l == nil {
		return undecided
	}
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	for i := len(l.rules) - 1; i >= 0; i-- {
		r := &l.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		subject := rel
		if r.base {
			subject = name
		}
		if r.glob.match(subject) {
			if r.negate {
				return included
			}
			return excluded
		}
	}
	return undecided
}
