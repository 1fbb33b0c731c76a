package search

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxLits bounds the literal sets the analysis builds.
const maxLits = 16

// litSet is a set of strings, searched case-sensitively or (fold) in ASCII-lowercased text.
type litSet struct {
	lits []string
	fold bool
}

// info is what the analysis knows of one node: the finite set of strings it matches (exact, nil
// when unknown or too large; pure when the set is exactly the node's language, with no assertion
// attached) and a set one of which every match contains (req, nil when none is known).
type info struct {
	exact *litSet
	pure  bool
	req   *litSet
}

// prefilter is the literal requirement of a whole pattern.
type prefilter struct {
	set litSet
	// sufficient: a line holding one of the literals matches (the regexp need not run).
	sufficient bool
}

// analyze derives the prefilter of a parsed, simplified pattern; nil when no literal is required.
func analyze(re *syntax.Regexp) *prefilter {
	in := walkInfo(re)
	best := in.req
	if in.exact != nil && usable(in.exact) && (best == nil || !better(best, in.exact)) {
		best = in.exact
	}
	if best == nil || !usable(best) {
		return nil
	}
	p := &prefilter{set: *best}
	p.sufficient = best == in.exact && in.pure && !slices.ContainsFunc(best.lits, func(s string) bool {
		return strings.ContainsAny(s, "\r\n")
	})
	return p
}

// usable: every literal non-empty.
func usable(s *litSet) bool {
	if s == nil || len(s.lits) == 0 {
		return false
	}
	for _, l := range s.lits {
		if l == "" {
			return false
		}
	}
	return true
}

func minLen(s *litSet) int {
	m := -1
	for _, l := range s.lits {
		if m < 0 || len(l) < m {
			m = len(l)
		}
	}
	return max(m, 0)
}

// better reports whether a is a better prefilter than b: longer shortest literal, then fewer
// literals, then case-sensitive.
func better(a, b *litSet) bool {
	if !usable(b) {
		return usable(a)
	}
	if !usable(a) {
		return false
	}
	if ma, mb := minLen(a), minLen(b); ma != mb {
		return ma > mb
	}
	if len(a.lits) != len(b.lits) {
		return len(a.lits) < len(b.lits)
	}
	return !a.fold && b.fold
}

func single(s string, fold bool) *litSet { return &litSet{lits: []string{s}, fold: fold} }

func walkInfo(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpLiteral:
		return literalInfo(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
			if n > 8 {
				return info{}
			}
		}
		set := &litSet{}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r == utf8.RuneError {
					return info{}
				}
				set.lits = append(set.lits, string(r))
			}
		}
		if len(set.lits) == 0 {
			return info{}
		}
		return info{exact: set, pure: true}
	case syntax.OpEmptyMatch:
		return info{exact: single("", false), pure: true}
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return info{exact: single("", false), pure: false}
	case syntax.OpCapture:
		return walkInfo(re.Sub[0])
	case syntax.OpConcat:
		return concatInfo(re.Sub)
	case syntax.OpAlternate:
		return alternateInfo(re.Sub)
	case syntax.OpQuest:
		c := walkInfo(re.Sub[0])
		if c.exact != nil && len(c.exact.lits) < maxLits {
			e := &litSet{lits: append(slices.Clone(c.exact.lits), ""), fold: c.exact.fold}
			return info{exact: e, pure: c.pure}
		}
		return info{}
	case syntax.OpPlus:
		return info{req: bestOf(walkInfo(re.Sub[0]))}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return info{req: bestOf(walkInfo(re.Sub[0]))}
		}
		return info{}
	}
	return info{}
}

// bestOf returns the better of a node's exact and required sets (nil when neither is usable).
func bestOf(in info) *litSet {
	var b *litSet
	if usable(in.req) {
		b = in.req
	}
	if usable(in.exact) && (b == nil || better(in.exact, b)) {
		b = in.exact
	}
	return b
}

// literalInfo: a case-sensitive literal is itself; a case-folded one is its ASCII-lowercased
// form when every rune folds only within ASCII (not k or s, whose fold orbits hold U+212A and
// U+017F, and no non-ASCII letter); otherwise the longest such run is required.
func literalInfo(runes []rune, fold bool) info {
	if !fold {
		s := string(runes)
		if !strings.ContainsRune(s, utf8.RuneError) {
			return info{exact: single(s, false), pure: true}
		}
		return info{req: longestRun(runes, func(r rune) bool { return r != utf8.RuneError }, false)}
	}
	safe := func(r rune) bool {
		if r >= utf8.RuneSelf {
			return false
		}
		l := r | 0x20
		return !(l == 'k' || l == 's')
	}
	all := true
	for _, r := range runes {
		if !safe(r) {
			all = false
			break
		}
	}
	if all {
		return info{exact: single(lowerASCII(string(runes)), true), pure: true}
	}
	return info{req: longestRun(runes, safe, true)}
}

// longestRun returns the longest run of runes satisfying ok, as a set (nil when empty).
func longestRun(runes []rune, ok func(rune) bool, fold bool) *litSet {
	best, cur := "", []rune(nil)
	flush := func() {
		if s := string(cur); len(s) > len(best) {
			best = s
		}
		cur = cur[:0]
	}
	for _, r := range runes {
		if ok(r) {
			cur = append(cur, r)
		} else {
			flush()
		}
	}
	flush()
	if best == "" {
		return nil
	}
	if fold {
		best = lowerASCII(best)
	}
	return single(best, fold)
}

func concatInfo(subs []*syntax.Regexp) info {
	prod := single("", false) // the exact product of the current run of exact children
	prodPure := true
	allExact := true
	var best *litSet
	consider := func(s *litSet) {
		if usable(s) && (best == nil || better(s, best)) {
			best = s
		}
	}
	for _, sub := range subs {
		c := walkInfo(sub)
		if c.exact != nil && prod != nil && len(prod.lits)*len(c.exact.lits) <= maxLits {
			prodPure = prodPure && c.pure && compatible(prod, c.exact)
			prod = cross(prod, c.exact)
			continue
		}
		consider(prod)
		consider(c.req)
		if c.exact != nil {
			prod, prodPure = c.exact, c.pure
			allExact = false
			continue
		}
		prod, prodPure = single("", false), true
		allExact = false
	}
	consider(prod)
	out := info{req: best}
	if allExact {
		out.exact, out.pure = prod, prodPure
	}
	return out
}

// cross concatenates every string of a with every string of b.
func cross(a, b *litSet) *litSet {
	lits := make([]string, 0, len(a.lits)*len(b.lits))
	for _, x := range a.lits {
		for _, y := range b.lits {
			lits = append(lits, x+y)
		}
	}
	return combined(a, b, lits)
}

func alternateInfo(subs []*syntax.Regexp) info {
	exact := &litSet{}
	pure := true
	req := &litSet{}
	for _, sub := range subs {
		c := walkInfo(sub)
		if exact != nil && c.exact != nil {
			pure = pure && c.pure && compatible(exact, c.exact)
			exact = union(exact, c.exact)
			if len(exact.lits) > maxLits {
				exact = nil
			}
		} else {
			exact = nil
		}
		b := bestOf(c)
		if req != nil && b != nil {
			req = union(req, b)
			if len(req.lits) > maxLits {
				req = nil
			}
		} else {
			req = nil
		}
	}
	return info{exact: exact, pure: pure && exact != nil, req: req}
}

// compatible reports whether a and b combine without losing exactness: both fold alike, or the
// case-sensitive one holds no ASCII letter (lowering it changes nothing).
func compatible(a, b *litSet) bool {
	if a.fold == b.fold {
		return true
	}
	sensitive := a
	if a.fold {
		sensitive = b
	}
	for _, l := range sensitive.lits {
		for i := 0; i < len(l); i++ {
			if isAlpha(l[i]) {
				return false
			}
		}
	}
	return true
}

func union(a, b *litSet) *litSet {
	return combined(a, b, append(slices.Clone(a.lits), b.lits...))
}

// combined is the set of lits made from a and b: folded when either is (its strings then
// ASCII-lowered), sorted and without repeats.
func combined(a, b *litSet, lits []string) *litSet {
	fold := a.fold || b.fold
	if fold {
		for i, s := range lits {
			lits[i] = lowerASCII(s)
		}
	}
	return &litSet{lits: dedupe(lits), fold: fold}
}

func dedupe(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
