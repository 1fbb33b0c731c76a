// Package nearmiss finds where the text an edit's old_string meant is, when old_string does not
// occur literally: the places whose lines equal old_string's once both are normalized (whitespace
// at either end of a line dropped, runs of whitespace inside a line made one space, curly quotes
// made straight, CRLF made LF, blank lines left out). It only locates; it never picks one place
// over an equally close other, and it never edits (docs/tool-fs.md "edit").
//
// The work is bounded: a text over MaxBytes or MaxLines is not searched, and a search that would
// compare more than maxSteps lines gives up, so that a huge file cannot make a refusal slow.
package nearmiss

import (
	"strings"
	"unicode"
)

// Bounds of a search.
const (
	MaxBytes = 4 << 20
	MaxLines = 100_000
	maxSteps = 20_000_000
)

// Place is one near miss: lines First..Last of the text (1-based).
type Place struct {
	First, Last int
	// Score counts the differences left once whitespace and quotes are normalized away: aligned
	// lines whose bytes differ, plus blank lines more or less. The closest places have the least.
	Score int
	// Pairs are the aligned non-blank lines, the file's and old_string's, as they are.
	Pairs []Pair
	// BlankDelta is the file's blank lines in the place less old_string's blank lines between its
	// first and last non-blank line.
	BlankDelta int
}

// Pair is a line of the file (number Line) aligned with a line of old_string.
type Pair struct {
	Line      int
	File, Old string
	k, n      int // old_string's line k of n
}

// Kinds names how the pair differs (see Kinds).
func (p Pair) Kinds() []string { return Kinds(p.File, p.Old, p.k, p.n) }

// Result is what Find found.
type Result struct {
	// Places are the closest places, in file order (all with the least Score).
	Places []Place
	// Searched is false when the bounds stopped the search (nothing is claimed then).
	Searched bool
}

type line struct {
	norm string
	raw  string
	num  int // 1-based
}

// Find locates old in text (both as given; CRLF pairs count as LF). It assumes old does not occur
// literally.
func Find(text, old string) Result {
	if len(text) > MaxBytes {
		return Result{}
	}
	text, old = lf(text), lf(old)
	if strings.Count(text, "\n") > MaxLines {
		return Result{}
	}
	file, fileAll := lines(text)
	want, wantAll := lines(old)
	if len(want) == 0 {
		return Result{Searched: true}
	}
	steps := 0
	var found []Place
	for i := 0; i+len(want) <= len(file); i++ {
		ok := true
		for k, w := range want {
			if steps++; steps > maxSteps {
				return Result{}
			}
			if !fits(file[i+k].norm, w.norm, k, len(want)) {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, place(file[i:i+len(want)], want, fileAll, wantAll))
		}
	}
	best := -1
	for _, p := range found {
		if best < 0 || p.Score < best {
			best = p.Score
		}
	}
	res := Result{Searched: true}
	for _, p := range found {
		if p.Score == best {
			res.Places = append(res.Places, p)
		}
	}
	return res
}

// fits reports whether a file line matches old_string's line k of n (both normalized, or both as
// they are): the only line may lie inside the file's, the first may end it, the last may begin
// it, the others equal it.
func fits(f, w string, k, n int) bool {
	switch {
	case n == 1:
		return strings.Contains(f, w)
	case k == 0:
		return strings.HasSuffix(f, w)
	case k == n-1:
		return strings.HasPrefix(f, w)
	}
	return f == w
}

func place(file, want []line, fileAll, wantAll []string) Place {
	p := Place{First: file[0].num, Last: file[len(file)-1].num}
	for k := range want {
		f, w := file[k].raw, want[k].raw
		p.Pairs = append(p.Pairs, Pair{Line: file[k].num, File: f, Old: w, k: k, n: len(want)})
		if !fits(f, w, k, len(want)) {
			p.Score++
		}
	}
	// Blank lines at either end of old_string take in the file's blank lines there.
	for lead := want[0].num - 1; lead > 0 && p.First > 1 && strings.TrimSpace(fileAll[p.First-2]) == ""; lead-- {
		p.First--
	}
	for trail := len(wantAll) - want[len(want)-1].num; trail > 0 && p.Last < len(fileAll) && strings.TrimSpace(fileAll[p.Last]) == ""; trail-- {
		p.Last++
	}
	fileBlanks := blanks(fileAll[p.First-1 : p.Last])
	wantBlanks := blanks(wantAll)
	p.BlankDelta = fileBlanks - wantBlanks
	p.Score += abs(p.BlankDelta)
	return p
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func blanks(ls []string) int {
	n := 0
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			n++
		}
	}
	return n
}

// lines splits text at '\n' and returns its non-blank lines, normalized, and all its lines raw. A
// final '\n' does not start another line.
func lines(text string) ([]line, []string) {
	all := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		all = nil
	}
	var out []line
	for i, l := range all {
		if n := Normalize(l); n != "" {
			out = append(out, line{norm: n, raw: l, num: i + 1})
		}
	}
	return out, all
}

func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// Normalize returns a line as the search compares it: whitespace at either end dropped, every run
// of whitespace inside made one space, curly quotes made straight.
func Normalize(l string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimFunc(l, unicode.IsSpace) {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case r == '‘' || r == '’' || r == '‚' || r == '‛':
			r = '\''
		case r == '“' || r == '”' || r == '„' || r == '‟':
			r = '"'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
