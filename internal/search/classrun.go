package search

import (
	"regexp/syntax"
	"unicode"
)

// classRun is the prefilter of a pattern that requires no literal but a run of single-byte
// classes, such as [0-9]{5,} (five digits in a row) or [A-Z][a-z]+_[0-9]: every match contains
// bytes b1..bk with each bi in class i. It is searched with the shift-and automaton (one table
// look-up per byte), so the regexp runs on the lines that hold such a run alone.
type classRun struct {
	masks [256]uint64 // bit i of masks[b]: b is in class i
	last  uint64      // the bit of the run's last class
	k     int
	// sufficient: a line holding the run matches (the pattern is the run).
	sufficient bool
}

// maxRun bounds the run (one bit per class in a word).
const maxRun = 64

// selectiveRun is the largest product of the classes' shares of the printable ASCII bytes for
// which a run is worth searching: above it most lines hold one and the regexp runs anyway.
const selectiveRun = 1.0 / 1000

// analyzeRun derives the class-run prefilter of a parsed, simplified pattern: the most selective
// run of consecutive single-byte classes that every match must contain; nil when none is
// selective enough.
func analyzeRun(re *syntax.Regexp) *classRun {
	items := flatConcat(nil, re)
	var best, cur [][256]bool
	bestShare, curShare := 1.0, 1.0
	exact := true // every item so far is part of the current run, in the run's form
	runs := 0
	flush := func() {
		if len(cur) > 0 {
			runs++
			if curShare < bestShare {
				best, bestShare = cur, curShare
			}
		}
		cur, curShare = nil, 1.0
	}
	add := func(c [256]bool) {
		if len(cur) == maxRun {
			flush()
		}
		cur = append(cur, c)
		curShare *= share(&c)
	}
	for i, it := range items {
		switch it.Op {
		case syntax.OpLiteral:
			for _, r := range it.Rune {
				c, ok := runeClass(r, it.Flags&syntax.FoldCase != 0)
				if !ok {
					flush()
					exact = false
					continue
				}
				add(c)
			}
		case syntax.OpCharClass:
			c, ok := byteClass(it.Rune)
			if !ok {
				flush()
				exact = false
				continue
			}
			add(c)
		case syntax.OpPlus:
			// c+ holds a c next to what precedes and next to what follows, but not next to both
			// at once: it ends the run, or starts one when it comes first.
			sub := it.Sub[0]
			c, ok := [256]bool{}, false
			if sub.Op == syntax.OpCharClass {
				c, ok = byteClass(sub.Rune)
			} else if sub.Op == syntax.OpLiteral && len(sub.Rune) == 1 {
				c, ok = runeClass(sub.Rune[0], sub.Flags&syntax.FoldCase != 0)
			}
			if !ok {
				flush()
				exact = false
				continue
			}
			if i == 0 {
				add(c)
				continue
			}
			add(c)
			flush()
			if i != len(items)-1 {
				exact = false
			}
		default:
			flush()
			exact = false
		}
	}
	flush()
	if best == nil || bestShare > selectiveRun {
		return nil
	}
	cr := &classRun{k: len(best), last: 1 << (len(best) - 1)}
	lineSafe := true
	for i, c := range best {
		for b := range 256 {
			if c[b] {
				cr.masks[b] |= 1 << i
			}
		}
		lineSafe = lineSafe && !c['\n'] && !c['\r']
	}
	cr.sufficient = exact && runs == 1 && lineSafe
	return cr
}

// flatConcat appends the items of re taken as a concatenation, through captures and nested
// concatenations (Simplify writes x{3} as one).
func flatConcat(out []*syntax.Regexp, re *syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpCapture:
		return flatConcat(out, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			out = flatConcat(out, sub)
		}
		return out
	}
	return append(out, re)
}

// share is the fraction of the printable ASCII bytes (and tab) a class holds.
func share(c *[256]bool) float64 {
	n := 0
	for b := 0x20; b < 0x7f; b++ {
		if c[b] {
			n++
		}
	}
	if c['\t'] {
		n++
	}
	return float64(n) / 96
}

// byteClass is the class of ranges (pairs of runes) when every rune is ASCII.
func byteClass(ranges []rune) ([256]bool, bool) {
	var c [256]bool
	if len(ranges) == 0 {
		return c, false
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i+1] >= 0x80 {
			return c, false
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			c[r] = true
		}
	}
	return c, true
}

// runeClass is the class of one literal rune when it and (fold) all its case forms are ASCII: not
// k or s, whose fold orbits hold U+212A and U+017F.
func runeClass(r rune, fold bool) ([256]bool, bool) {
	var c [256]bool
	if r >= 0x80 {
		return c, false
	}
	c[r] = true
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= 0x80 {
				return c, false
			}
			c[f] = true
		}
	}
	return c, true
}

// index returns the start of the first run in text, or -1.
func (cr *classRun) index(text []byte) int {
	var d uint64
	for i, b := range text {
		d = (d<<1 | 1) & cr.masks[b]
		if d&cr.last != 0 {
			return i + 1 - cr.k
		}
	}
	return -1
}
