package seen

import (
	"slices"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Same reports whether the lines of w are, in d, what was seen: the same bytes at the same line
// numbers, and, when w reached the last line of the file as seen, the same end of file.
func Same(s *fs.Seen, w fs.SeenWindow, d Doc) bool {
	if w.Last() > d.Lines() || Sum(d.Span(w.First, w.Last())) != w.Sum {
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

// Region reports whether every touched line lies in a window of s and is, in d, the line that was
// seen there (compared byte for byte where the window kept its text, by the whole window's digest
// where it did not). It returns the seen lines that differ in d outside touched.
func Region(s *fs.Seen, d Doc, touched []fs.LineRange) (elsewhere []fs.LineRange, ok bool) {
	for _, t := range touched {
		if !regionSeen(s, d, t) {
			return nil, false
		}
	}
	var lines []int
	for _, w := range s.Windows {
		if Same(s, w, d) {
			continue
		}
		if !w.Kept {
			lines = appendRange(lines, w.First, w.Last(), touched)
			continue
		}
		seenDoc := Split(w.Text)
		for i := w.First; i <= w.Last(); i++ {
			if seenDoc.Span(i-w.First+1, i-w.First+1) != d.Span(i, i) {
				lines = appendRange(lines, i, i, touched)
			}
		}
	}
	slices.Sort(lines)
	return Ranges(slices.Compact(lines)), true
}

func regionSeen(s *fs.Seen, d Doc, t fs.LineRange) bool {
	for _, w := range s.Windows {
		if w.First > t.First || t.Last > w.Last() {
			continue
		}
		if !w.Kept {
			if Same(s, w, d) {
				return true
			}
			continue
		}
		seenDoc := Split(w.Text)
		if seenDoc.Span(t.First-w.First+1, t.Last-w.First+1) == d.Span(t.First, t.Last) {
			return true
		}
	}
	return false
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
