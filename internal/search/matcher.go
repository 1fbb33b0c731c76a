package search

import (
	"bytes"
	"regexp"
	"regexp/syntax"
)

// Matcher decides whether a line matches a regular expression (RE2 syntax, Go's regexp). It is
// safe for concurrent use.
type Matcher struct {
	re   *regexp.Regexp
	pf   *prefilter
	run  *classRun // when pf is nil: a run of byte classes every match holds (classrun.go)
	lits [][]byte  // the prefilter's literals (lowercased when pf.set.fold)
	// maxLit is the length of the longest literal.
	maxLit int
}

// CompileMatcher compiles a pattern. A malformed pattern fails with a *PatternError whose message
// is regexp's.
func CompileMatcher(pattern string) (*Matcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, &PatternError{Pattern: pattern, Err: err}
	}
	m := &Matcher{re: re}
	if parsed, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		simple := parsed.Simplify()
		if m.pf = analyze(simple); m.pf == nil {
			m.run = analyzeRun(simple)
		}
	}
	if m.pf != nil {
		for _, l := range m.pf.set.lits {
			m.lits = append(m.lits, []byte(l))
			m.maxLit = max(m.maxLit, len(l))
		}
	}
	return m, nil
}

// Literals returns the prefilter's literals and whether they are matched case-insensitively
// (ASCII) and whether finding one is sufficient; nil when the pattern requires none.
func (m *Matcher) Literals() (lits []string, fold, sufficient bool) {
	if m.pf == nil {
		return nil, false, false
	}
	return m.pf.set.lits, m.pf.set.fold, m.pf.sufficient
}

// MatchLine reports whether line (without its terminator) matches.
func (m *Matcher) MatchLine(line []byte) bool {
	if m.pf != nil {
		text := line
		if m.pf.set.fold {
			text = make([]byte, len(line))
			lowerInto(text, line)
		}
		found := false
		for _, l := range m.lits {
			if bytes.Contains(text, l) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
		if m.pf.sufficient {
			return true
		}
	} else if m.run != nil {
		if m.run.index(line) < 0 {
			return false
		}
		if m.run.sufficient {
			return true
		}
	}
	return m.re.Match(line)
}
