package seen

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// DiffMaxBytes bounds the text Changes returns (about 4,000 bytes).
const DiffMaxBytes = 4000

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 2

// curCap bounds the current text a window is compared with.
const curCap = 4 * TextCap

// DiffTime bounds the time the line diffs of one call (Changes, Region) may take, all windows
// together: past it, each remaining stretch is compared coarsely (common first and last lines
// kept, the rest all removed and all added), which only shows more lines as changed.
const DiffTime = 100 * time.Millisecond

// Changes renders, for the model, how d differs from what s saw, at most max bytes (cut at a line,
// with a note): per changed window a unified diff ("-" as read, "+" now, "@@ -a,b +c,d @@" in the
// file's line numbers), or a note when the window was too long to keep its text. A line's '\n' is
// not shown; a carriage return before it is shown as "␍" unless every line of both sides ends with
// CRLF. Windows that overlap or touch are compared as one, and a hunk whose lines now were all shown
// already is left out, so no change is shown twice. It returns "" when no window changed.
func Changes(s *fs.Seen, d Doc, max int) string {
	text, _ := ChangesShown(s, d, max)
	return text
}

// ChangesShown is Changes and the lines of d its hunks show whole (each hunk's "+c,d" lines, when
// the hunk was not cut): what the model was shown of the file now.
func ChangesShown(s *fs.Seen, d Doc, max int) (string, []fs.LineRange) {
	deadline := time.Now().Add(DiffTime)
	s = coalesce(s)
	var b strings.Builder
	var hunks []hunk
	for _, w := range s.Windows {
		if Same(s, w, d) {
			continue
		}
		if !w.Kept {
			b.WriteString(Spell([]fs.LineRange{{First: w.First, Last: w.Last()}}) + " changed since they were read (not shown: too much was read to keep its text)\n")
			continue
		}
		first, cur := around(s, w, d)
		var found bool
		hunks, found = unified(&b, w.Text, cur, w.First, first, deadline, hunks)
		if !found {
			b.WriteString("the file had " + strconv.Itoa(s.Lines) + " lines when read and has " + strconv.Itoa(d.Lines()) + " now\n")
		}
	}
	text := bound(b.String(), max)
	var shown []fs.LineRange
	whole := wholeTo(text, max)
	for _, h := range hunks {
		if h.end <= whole && h.now.Last >= h.now.First {
			shown = append(shown, h.now)
		}
	}
	return text, shown
}

// hunk is where one hunk ends in the rendered text and the lines of the file now it shows.
type hunk struct {
	end int
	now fs.LineRange
}

// coalesce returns s with the windows that overlap or touch, and kept their text, merged into one
// (their lines were seen at one version, so the texts agree where they overlap).
func coalesce(s *fs.Seen) *fs.Seen {
	ws := slices.Clone(s.Windows)
	slices.SortStableFunc(ws, func(a, b fs.SeenWindow) int { return a.First - b.First })
	var out []fs.SeenWindow
	for _, w := range ws {
		k := len(out) - 1
		if k < 0 || !w.Kept || !out[k].Kept || w.Count == 0 || out[k].Count == 0 || w.First > out[k].Last()+1 {
			out = append(out, w)
			continue
		}
		if w.Last() <= out[k].Last() {
			continue // inside the previous window
		}
		extra := Split(w.Text).Span(out[k].Last()-w.First+2, w.Count)
		merged := out[k].Text + extra
		out[k] = fs.SeenWindow{First: out[k].First, Count: w.Last() - out[k].First + 1, Sum: Sum(merged), Text: merged, Kept: true}
	}
	return &fs.Seen{Lines: s.Lines, Windows: out}
}

// around returns where the lines of w may be in d now, and their text: the same lines widened
// by as many lines as the file grew or shrank, and through the end of the file when w reached it
// (bounded by curCap).
func around(s *fs.Seen, w fs.SeenWindow, d Doc) (first int, text string) {
	first = max(1, w.First-max(s.Lines-d.Lines(), 0))
	last := w.Last() + max(d.Lines()-s.Lines, 0)
	if w.Last() == s.Lines {
		last = d.Lines() // the window saw the end of the file: show what follows it now
	}
	text = d.Span(first, last)
	if len(text) > curCap {
		text = text[:strings.LastIndexByte(text[:curCap], '\n')+1]
	}
	return first, text
}

func span(first, last int) string {
	if first == last {
		return strconv.Itoa(first)
	}
	return strconv.Itoa(first) + "-" + strconv.Itoa(last)
}

// cutNote is the note bound ends a cut text with.
func cutNote(max int) string {
	return "… (cut at " + strconv.Itoa(max) + " bytes: re-read the file to see the rest)"
}

// wholeTo is how many bytes of the text bound was given its result keeps, line breaks included.
func wholeTo(text string, max int) int {
	if !strings.HasSuffix(text, cutNote(max)) {
		return len(text) + 1
	}
	return len(text) - len(cutNote(max))
}

// bound cuts text at the last line break within max bytes and says so.
func bound(text string, max int) string {
	text = strings.TrimSuffix(text, "\n")
	if len(text) <= max {
		return text
	}
	note := cutNote(max)
	cut := strings.LastIndexByte(text[:max-len(note)], '\n')
	if cut < 0 {
		cut = 0
	}
	return text[:cut] + "\n" + note
}

type op struct {
	kind  diffmatchpatch.Operation
	lines []string
}

// lineOps returns the line diff of a and b: runs of whole lines, each with its '\n'. Past deadline
// the diff is coarse (coarseOps), and a diff running when it passes turns coarse where it is.
func lineOps(a, b string, deadline time.Time) []op {
	left := time.Until(deadline)
	if left <= 0 { // go-diff reads a zero timeout as none
		return coarseOps(a, b)
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = left
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	var ops []op
	for _, df := range dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines) {
		ops = append(ops, op{df.Type, splitLines(df.Text)})
	}
	return ops
}

// coarseOps is the cheap line diff of a and b: their common first and last lines equal, the lines
// between removed from a and added from b.
func coarseOps(a, b string) []op {
	la, lb := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	var ops []op
	for _, o := range []op{
		{diffmatchpatch.DiffEqual, la[:pre]},
		{diffmatchpatch.DiffDelete, la[pre : len(la)-suf]},
		{diffmatchpatch.DiffInsert, lb[pre : len(lb)-suf]},
		{diffmatchpatch.DiffEqual, la[len(la)-suf:]},
	} {
		if len(o.lines) > 0 {
			ops = append(ops, o)
		}
	}
	return ops
}

// splitLines cuts text into lines, each with its '\n' (a last one may have none).
func splitLines(text string) []string {
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// unified writes the hunks of the line diff of a (seen, from line firstA) and b (now, from line
// firstB).
// It returns hunks with the hunks it wrote appended, and whether it found any; a hunk whose lines
// now were all shown by an earlier hunk is not written.
func unified(w *strings.Builder, a, b string, firstA, firstB int, deadline time.Time, hunks []hunk) ([]hunk, bool) {
	found := false
	ops := lineOps(a, b, deadline)
	crlf := allCRLF(a) && allCRLF(b)                                 // then a carriage return tells nothing: it is not shown
	ends := strings.HasSuffix(a, "\n") != strings.HasSuffix(b, "\n") // only then is a missing final '\n' shown
	line := func(w *strings.Builder, mark byte, l string) { diffLine(w, mark, l, !crlf, ends) }
	la, lb := firstA, firstB // the line numbers of the next line of each side
	for i := 0; i < len(ops); {
		if ops[i].kind == diffmatchpatch.DiffEqual {
			la += len(ops[i].lines)
			lb += len(ops[i].lines)
			i++
			continue
		}
		// A hunk: from this change through the last change followed by a short equal run.
		j := i
		for j < len(ops) && (ops[j].kind != diffmatchpatch.DiffEqual || (len(ops[j].lines) <= 2*diffContext && j+1 < len(ops))) {
			j++
		}
		var lead, trail []string
		if i > 0 {
			prev := ops[i-1].lines
			lead = prev[len(prev)-min(len(prev), diffContext):]
		}
		if j < len(ops) {
			trail = ops[j].lines[:min(len(ops[j].lines), diffContext)]
		}
		var body strings.Builder
		na, nb := len(lead)+len(trail), len(lead)+len(trail)
		for _, l := range lead {
			line(&body, ' ', l)
		}
		for _, o := range ops[i:j] {
			c := map[diffmatchpatch.Operation]byte{diffmatchpatch.DiffEqual: ' ', diffmatchpatch.DiffDelete: '-', diffmatchpatch.DiffInsert: '+'}[o.kind]
			for _, l := range o.lines {
				line(&body, c, l)
			}
			if o.kind != diffmatchpatch.DiffInsert {
				na += len(o.lines)
			}
			if o.kind != diffmatchpatch.DiffDelete {
				nb += len(o.lines)
			}
		}
		for _, l := range trail {
			line(&body, ' ', l)
		}
		found = true
		now := fs.LineRange{First: lb - len(lead), Last: lb - len(lead) + nb - 1}
		if !slices.ContainsFunc(hunks, func(h hunk) bool { return h.now.First <= now.First && now.Last <= h.now.Last && nb > 0 }) {
			w.WriteString("@@ -" + strconv.Itoa(la-len(lead)) + "," + strconv.Itoa(na) + " +" + strconv.Itoa(lb-len(lead)) + "," + strconv.Itoa(nb) + " @@\n")
			w.WriteString(body.String())
			hunks = append(hunks, hunk{end: w.Len(), now: now})
		}
		for _, o := range ops[i:j] {
			if o.kind != diffmatchpatch.DiffInsert {
				la += len(o.lines)
			}
			if o.kind != diffmatchpatch.DiffDelete {
				lb += len(o.lines)
			}
		}
		i = j
	}
	return hunks, found
}

// allCRLF reports whether every line of text ends with CRLF.
func allCRLF(text string) bool {
	return text != "" && strings.Count(text, "\r\n") == countLines(text) && strings.HasSuffix(text, "\r\n")
}

// diffLine writes one diff line: its mark, its text without '\n', a final '\r' as "␍" (dropped
// when not showCR), and, when showEnd, after a last line without '\n' the line "\ No newline at
// end of file".
func diffLine(w *strings.Builder, mark byte, raw string, showCR, showEnd bool) {
	l := strings.TrimSuffix(raw, "\n")
	if strings.HasSuffix(l, "\r") {
		l = l[:len(l)-1]
		if showCR {
			l += "␍"
		}
	}
	w.WriteByte(mark)
	w.WriteString(l)
	w.WriteByte('\n')
	if showEnd && !strings.HasSuffix(raw, "\n") {
		w.WriteString("\\ No newline at end of file\n")
	}
}
