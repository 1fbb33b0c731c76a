package seen

import (
	"slices"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Same reports whether the lines of w are, in d, what was seen: the same bytes at the same line
// numbers, and, when w reached the last line of the file as seen, the same end of file.
func Same(s *fs.Seen, w fs.SeenWindow, d Doc) bool {
	if w.Count > 0 && (w.Last() > d.Lines() || Sum(d.Span(w.First, w.Last())) != w.Sum) {
		return false
	}
	return w.Last() != s.Lines || d.Lines() == s.Lines
}

// Unchanged reports whether every window of s is the same in d (the content rule).
func Unchanged(s *fs.Seen, d Doc) bool {
	for _, w := range s.Windows {
		if !Same(s, w, d) {
			return false
		}
	}
	return true
}

// Covers reports whether the windows of s together cover every line of the file as seen.
func Covers(s *fs.Seen) bool {
	ws := slices.Clone(s.Windows)
	slices.SortFunc(ws, func(a, b fs.SeenWindow) int { return a.First - b.First })
	next := 1
	for _, w := range ws {
		if w.First > next {
			return false
		}
		next = max(next, w.Last()+1)
	}
	return next > s.Lines
}

// Region reports whether every touched line lies in a window of s and is, in d, a line that was
// seen there: where the window kept its text, a line the line diff of what was seen and the
// window's lines now (see around) leaves equal, so lines that moved count as seen; where it did
// not, the whole window must be the same. A line the diff pairs with a seen line is not taken for
// it when a line the diff finds added has the same text: the diff cannot tell which of the two is
// the line that was read and which is new, so neither counts as seen. It returns the lines of d,
// outside touched, that the diffs find changed (for a window without text: all its lines, when it
// changed).
func Region(s *fs.Seen, d Doc, touched []fs.LineRange) (elsewhere []fs.LineRange, ok bool) {
	deadline := time.Now().Add(DiffTime)
	equal := map[int]bool{}        // lines of d equal to a seen line
	var lines, gone []int          // lines of d changed; lines of d where seen lines went missing
	added := map[string]bool{}     // the text of every line the diffs find added
	pairedText := map[int]string{} // the text of each line of d a diff pairs with a seen line
	for _, w := range s.Windows {
		if !w.Kept {
			if Same(s, w, d) {
				for i := w.First; i <= w.Last(); i++ {
					equal[i] = true
				}
			} else {
				lines = appendRange(lines, w.First, min(w.Last(), d.Lines()), touched)
			}
			continue
		}
		first, cur := around(s, w, d)
		n := first
		for _, o := range lineOps(w.Text, cur, deadline) {
			switch o.kind {
			case diffmatchpatch.DiffEqual:
				for _, l := range o.lines {
					equal[n] = true
					pairedText[n] = l
					n++
				}
			case diffmatchpatch.DiffInsert:
				lines = appendRange(lines, n, n+len(o.lines)-1, touched)
				for _, l := range o.lines {
					added[l] = true
				}
				n += len(o.lines)
			case diffmatchpatch.DiffDelete:
				if n <= d.Lines() {
					gone = appendRange(gone, n, n, touched)
				}
			}
		}
	}
	for _, t := range touched {
		for i := t.First; i <= t.Last; i++ {
			if !equal[i] || added[pairedText[i]] {
				return nil, false
			}
		}
	}
	lines = append(slices.DeleteFunc(lines, func(i int) bool { return equal[i] }), gone...)
	slices.Sort(lines)
	return Ranges(slices.Compact(lines)), true
}

// appendRange appends first..last, less the touched lines.
func appendRange(lines []int, first, last int, touched []fs.LineRange) []int {
	for i := first; i <= last; i++ {
		if !slices.ContainsFunc(touched, func(t fs.LineRange) bool { return t.First <= i && i <= t.Last }) {
			lines = append(lines, i)
		}
	}
	return lines
}

// Ranges folds sorted, distinct line numbers into ranges.
func Ranges(lines []int) []fs.LineRange {
	var out []fs.LineRange
	for _, n := range lines {
		if k := len(out) - 1; k >= 0 && out[k].Last+1 == n {
			out[k].Last = n
			continue
		}
		out = append(out, fs.LineRange{First: n, Last: n})
	}
	return out
}

// Touched returns the lines of content (LF-normalized) spanned by the non-overlapping occurrences
// of old (LF-normalized, non-empty), left to right, as a literal edit counts them.
func Touched(content, old string) []fs.LineRange {
	if old == "" {
		return nil
	}
	var out []fs.LineRange
	line, at := 1, 0
	for {
		i := indexFrom(content, old, at)
		if i < 0 {
			return out
		}
		line += countNL(content[at:i])
		span := countNL(old[:len(old)-1]) // a final '\n' ends the last touched line
		out = append(out, fs.LineRange{First: line, Last: line + span})
		line += countNL(old)
		at = i + len(old)
	}
}

// Spell renders line ranges for the model, merged and in order: "line 4", "lines 1-10, 30".
func Spell(rs []fs.LineRange) string {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b fs.LineRange) int { return a.First - b.First })
	var merged []fs.LineRange
	for _, r := range rs {
		if k := len(merged) - 1; k >= 0 && r.First <= merged[k].Last+1 {
			merged[k].Last = max(merged[k].Last, r.Last)
			continue
		}
		merged = append(merged, r)
	}
	if len(merged) == 0 {
		return "no lines"
	}
	parts := make([]string, len(merged))
	for i, r := range merged {
		parts[i] = span(r.First, r.Last)
	}
	word := "lines "
	if len(merged) == 1 && merged[0].First == merged[0].Last {
		word = "line "
	}
	return word + strings.Join(parts, ", ")
}

// ReadLines spells the lines the windows of s cover ("lines 1-10, 30-40").
func ReadLines(s *fs.Seen) string {
	var rs []fs.LineRange
	for _, w := range s.Windows {
		if w.Count > 0 {
			rs = append(rs, fs.LineRange{First: w.First, Last: w.Last()})
		}
	}
	return Spell(rs)
}

// Saw reports whether a window of s covers line.
func Saw(s *fs.Seen, line int) bool {
	for _, w := range s.Windows {
		if w.Count > 0 && w.First <= line && line <= w.Last() {
			return true
		}
	}
	return false
}

// Kept returns the lines of w (which kept its text) that d still holds as they were seen, at the
// same line numbers.
func Kept(w fs.SeenWindow, d Doc) []fs.LineRange {
	var lines []int
	for i, l := range splitLines(w.Text) {
		if n := w.First + i; n <= d.Lines() && d.Span(n, n) == l {
			lines = append(lines, n)
		}
	}
	return Ranges(lines)
}
