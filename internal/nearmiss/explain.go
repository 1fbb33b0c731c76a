package nearmiss

import (
	"strconv"
	"strings"
	"unicode"
)

// Bounds of an explanation.
const (
	// MaxShownPlaces is the number of places shown; the rest are only counted.
	MaxShownPlaces = 3
	// maxShownLines is the number of a place's lines shown.
	maxShownLines = 12
	// maxQuoted is the number of a place's differing lines quoted side by side.
	maxQuoted = 3
	// ExplainMaxBytes bounds an explanation (about 4,000 bytes).
	ExplainMaxBytes = 4000
)

// Explain renders r for the model, in at most ExplainMaxBytes bytes: where the closest text is, the
// file's lines there as read shows them ("<n>: <text>"), and, for each line that differs, the
// file's line and old_string's line quoted so whitespace and line ends are visible. It returns ""
// when there is no place. text is the file's text (for the lines shown).
func Explain(r Result, text string) string {
	if len(r.Places) == 0 {
		return ""
	}
	all := strings.Split(lf(text), "\n")
	var b strings.Builder
	if len(r.Places) == 1 {
		p := r.Places[0]
		b.WriteString("The closest text is at " + lines2(p.First, p.Last) + why(p) + ":\n")
		show(&b, p, all)
	} else {
		b.WriteString("old_string's text, ignoring whitespace and quotes, is at " + strconv.Itoa(len(r.Places)) +
			" places, equally close; none was changed. Make old_string match one of them exactly:\n")
		for i, p := range r.Places {
			if i == MaxShownPlaces {
				b.WriteString("… and " + strconv.Itoa(len(r.Places)-i) + " more places, at " + starts(r.Places[i:]) + "\n")
				break
			}
			b.WriteString(lines2(p.First, p.Last) + why(p) + ":\n")
			show(&b, p, all)
		}
	}
	return cut(strings.TrimSuffix(b.String(), "\n"), ExplainMaxBytes)
}

// starts lists where places start, at most maxListed of them.
func starts(ps []Place) string {
	const maxListed = 20
	parts := make([]string, 0, min(len(ps), maxListed))
	for _, p := range ps[:min(len(ps), maxListed)] {
		parts = append(parts, strconv.Itoa(p.First))
	}
	if len(ps) > maxListed {
		parts = append(parts, "…")
	}
	return "lines " + strings.Join(parts, ", ")
}

func lines2(first, last int) string {
	if first == last {
		return "line " + strconv.Itoa(first)
	}
	return "lines " + strconv.Itoa(first) + "-" + strconv.Itoa(last)
}

// why names what differs: "; old_string differs there in indentation and trailing whitespace".
func why(p Place) string {
	var kinds []string
	add := func(k string) {
		for _, x := range kinds {
			if x == k {
				return
			}
		}
		kinds = append(kinds, k)
	}
	for _, pr := range p.Pairs {
		for _, k := range pr.Kinds() {
			add(k)
		}
	}
	switch {
	case p.BlankDelta > 0:
		add("blank lines (the file has more)")
	case p.BlankDelta < 0:
		add("blank lines (the file has fewer)")
	}
	if len(kinds) == 0 {
		return ""
	}
	return "; old_string differs there in " + join(kinds)
}

func join(ks []string) string {
	if len(ks) == 1 {
		return ks[0]
	}
	return strings.Join(ks[:len(ks)-1], ", ") + " and " + ks[len(ks)-1]
}

// Kinds names how a file line and old_string's line k of n differ, once equal normalized:
// "indentation", "trailing whitespace", "line endings (a carriage return)", "quotes (curly vs
// straight)", "spacing inside a line". It returns nil when the line matches as it is (see fits).
func Kinds(file, old string, k, n int) []string {
	if fits(file, old, k, n) {
		return nil
	}
	var ks []string
	if fl, ol := lead(file), lead(old); fl != ol && (ol != "" || k > 0 || n == 1 && fl == "") {
		ks = append(ks, "indentation")
	}
	ft, ot := trail(file), trail(old)
	if strings.Count(ft, "\r") != strings.Count(ot, "\r") {
		ks = append(ks, "line endings (a carriage return)")
	}
	if strings.ReplaceAll(ft, "\r", "") != strings.ReplaceAll(ot, "\r", "") && (n == 1 || k < n-1) {
		ks = append(ks, "trailing whitespace")
	}
	if (straight(file) != file) != (straight(old) != old) {
		ks = append(ks, "quotes (curly vs straight)")
	}
	fi, oi := straight(strings.TrimFunc(file, unicode.IsSpace)), straight(strings.TrimFunc(old, unicode.IsSpace))
	if !strings.Contains(fi, oi) && strings.Contains(collapse(fi), collapse(oi)) {
		ks = append(ks, "spacing inside a line")
	}
	return ks
}

func lead(s string) string  { return s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))] }
func trail(s string) string { return s[len(strings.TrimRightFunc(s, unicode.IsSpace)):] }

func straight(s string) string {
	return strings.NewReplacer("‘", "'", "’", "'", "‚", "'", "‛", "'", "“", `"`, "”", `"`, "„", `"`, "‟", `"`).Replace(s)
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// show writes a place's lines as read numbers them, then its differing lines quoted.
func show(b *strings.Builder, p Place, all []string) {
	for n := p.First; n <= p.Last; n++ {
		if n-p.First == maxShownLines {
			b.WriteString("… (" + strconv.Itoa(p.Last-n+1) + " more lines)\n")
			break
		}
		b.WriteString(strconv.Itoa(n) + ": " + strings.TrimSuffix(all[n-1], "\r") + "\n")
	}
	quoted := 0
	for _, pr := range p.Pairs {
		if len(pr.Kinds()) == 0 {
			continue
		}
		if quoted == maxQuoted {
			b.WriteString("… (more lines differ)\n")
			break
		}
		quoted++
		b.WriteString("line " + strconv.Itoa(pr.Line) + " is " + strconv.Quote(pr.File) + "; old_string has " + strconv.Quote(pr.Old) + "\n")
	}
	switch {
	case p.BlankDelta > 0:
		b.WriteString("the file has " + count(p.BlankDelta, "blank line") + " there that old_string does not have\n")
	case p.BlankDelta < 0:
		b.WriteString("old_string has " + count(-p.BlankDelta, "blank line") + " that the file does not have there\n")
	}
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// cut bounds text to max bytes at a line break, saying so.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	const note = "… (cut)"
	i := strings.LastIndexByte(text[:max-len(note)], '\n')
	if i < 0 {
		i = 0
	}
	return text[:i] + "\n" + note
}
