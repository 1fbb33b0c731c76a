package search

import (
	"bytes"
	"slices"
	"strings"
)

// rule is one line of an ignore file.
type rule struct {
	negate  bool
	dirOnly bool
	base    bool // no '/' but a trailing one: match the base name at any depth
	glob    *wildPattern
}

// The caps on one ignore file, so that no file can make matching slow: its first maxIgnoreBytes
// are read (whole lines), and of its rules that need the wildcard matcher (not a literal, a
// "*literal" or a "literal*" name) only those whose patterns add up to maxWildcardBytes. Rules past
// either cap are left out and the file counts as applied in part.
const (
	maxIgnoreBytes   = 1 << 20
	maxWildcardBytes = 32 << 10
)

// ruleList is the rules of one ignore file compiled into one matcher: rules without wildcards in
// hash sets (base names, paths), "*literal" and "literal*" base-name rules in tables by the
// literal's length, path rules that start with a literal directory filed under that directory, the
// rest in a list. The last matching line decides: every table keeps per key the last rule, and the
// later tables and lists are searched only for rules after the best one found.
type ruleList struct {
	rules            []rule
	baseLit, pathLit map[string]last
	suffix, prefix   affixTable
	dirRules         map[string][]int32 // by literal leading directory, ascending
	rest             []int32            // ascending
	partial          bool               // rules past the caps were left out
}

// last is, for one key, the number (index+1; 0 none) of its last rule and of its last rule that
// applies to files (not directory-only).
type last struct{ any, file int32 }

func (l *last) add(i int32, dirOnly bool) {
	l.any = i + 1
	if !dirOnly {
		l.file = i + 1
	}
}

func (l last) get(isDir bool) int32 {
	if isDir {
		return l.any
	}
	return l.file
}

// affixTable files literals by length: a name matches the keys equal to its suffix (or prefix) of
// each length.
type affixTable struct {
	lens []int
	keys []map[string]last // parallel to lens
}

func (t *affixTable) add(key string, i int32, dirOnly bool) {
	k, ok := slices.BinarySearch(t.lens, len(key))
	if !ok {
		t.lens = slices.Insert(t.lens, k, len(key))
		t.keys = slices.Insert(t.keys, k, map[string]last{})
	}
	v := t.keys[k][key]
	v.add(i, dirOnly)
	t.keys[k][key] = v
}

func (t *affixTable) best(name string, suffix, isDir bool, best int32) int32 {
	for k, n := range t.lens {
		if n > len(name) {
			break
		}
		key := name[:n]
		if suffix {
			key = name[len(name)-n:]
		}
		if v := t.keys[k][key].get(isDir); v > best {
			best = v
		}
	}
	return best
}

// parseRules parses an ignore file as git does: a leading UTF-8 BOM is skipped, lines end at '\n'
// (a '\r' before it is dropped), blank lines and lines starting with '#' are skipped, trailing
// spaces are dropped unless escaped with '\', a leading '!' negates ("\!" and "\#" are literal), a
// trailing '/' restricts the rule to directories, and a rule with no other '/' matches the base
// name at any depth (otherwise the path relative to the file's directory, a leading '/' only
// anchoring it). It returns nil when no rule remains. Past the caps (maxIgnoreBytes,
// maxWildcardBytes) rules are left out and the list is partial.
func parseRules(data []byte) *ruleList {
	var l ruleList
	if len(data) > maxIgnoreBytes {
		data = data[:bytes.LastIndexByte(data[:maxIgnoreBytes+1], '\n')+1]
		l.partial = true
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	wild := 0
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		r, ok := parseRule(string(line))
		if !ok {
			continue
		}
		if r.needsWildcard() {
			if wild += len(line); wild > maxWildcardBytes {
				l.partial = true
				continue
			}
		}
		l.add(r)
	}
	if len(l.rules) == 0 {
		if l.partial {
			return &l
		}
		return nil
	}
	return &l
}

// needsWildcard reports whether r lands in the wildcard matcher (dirRules or rest).
func (r *rule) needsWildcard() bool {
	g := r.glob
	return !g.isLit && !(r.base && (g.isSuffix || g.isPrefix))
}

// add files rule r, the next in file order.
func (l *ruleList) add(r rule) {
	i := int32(len(l.rules))
	l.rules = append(l.rules, r)
	g := r.glob
	switch {
	case g.isLit && r.base:
		l.baseLit = addLast(l.baseLit, g.literal, i, r.dirOnly)
	case g.isLit:
		l.pathLit = addLast(l.pathLit, g.literal, i, r.dirOnly)
	case r.base && g.isSuffix:
		l.suffix.add(g.suffix, i, r.dirOnly)
	case r.base && g.isPrefix:
		l.prefix.add(g.prefix, i, r.dirOnly)
	default:
		if dir := leadingDir(g); !r.base && dir != "" {
			if l.dirRules == nil {
				l.dirRules = map[string][]int32{}
			}
			l.dirRules[dir] = append(l.dirRules[dir], i)
			return
		}
		l.rest = append(l.rest, i)
	}
}

func addLast(m map[string]last, key string, i int32, dirOnly bool) map[string]last {
	if m == nil {
		m = map[string]last{}
	}
	v := m[key]
	v.add(i, dirOnly)
	m[key] = v
	return m
}

// leadingDir is the literal directory a path pattern starts with ("a/b" for "a/b/c*/d"), or "".
func leadingDir(g *wildPattern) string {
	end := -1
	for i, t := range g.toks {
		if t.kind != tokByte {
			break
		}
		if t.b == '/' {
			end = i
		}
	}
	if end <= 0 {
		return ""
	}
	lit, _ := literalRun(g.toks[:end])
	return lit
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
		// "**/x" with no other '/' matches the name x at any depth: a base-name rule.
		if rest, ok := strings.CutPrefix(line, "**/"); ok && rest != "" && !strings.Contains(rest, "/") && !strings.HasPrefix(rest, "**") {
			line, r.base = rest, true
		}
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
	if l == nil || len(l.rules) == 0 {
		return undecided
	}
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	best := l.baseLit[name].get(isDir)
	if v := l.pathLit[rel].get(isDir); v > best {
		best = v
	}
	best = l.suffix.best(name, true, isDir, best)
	best = l.prefix.best(name, false, isDir, best)
	if l.dirRules != nil {
		for i := 0; i < len(rel); i++ {
			if rel[i] == '/' {
				best = l.lastMatch(l.dirRules[rel[:i]], rel, name, isDir, best)
			}
		}
	}
	best = l.lastMatch(l.rest, rel, name, isDir, best)
	switch {
	case best == 0:
		return undecided
	case l.rules[best-1].negate:
		return included
	}
	return excluded
}

// lastMatch returns the number of the last rule of idx (ascending) after best that matches, or best.
func (l *ruleList) lastMatch(idx []int32, rel, name string, isDir bool, best int32) int32 {
	for j := len(idx) - 1; j >= 0 && idx[j] >= best; j-- {
		r := &l.rules[idx[j]]
		if r.dirOnly && !isDir {
			continue
		}
		subject := rel
		if r.base {
			subject = name
		}
		if r.glob.match(subject) {
			return idx[j] + 1
		}
	}
	return best
}
