package filetool

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// DiffContext is the number of unchanged lines shown on each side of a hunk.
const DiffContext = 3

// FileDiff is one hunk of a write or an edit: the old and new text of the hunk with its context
// lines, each side joined by '\n' without a final newline. OldText is nil for a pure insertion.
type FileDiff struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
}

// DiffMeta is the replayable presentation meta of a write, an edit or a patch: one entry per hunk.
type DiffMeta struct {
	Diffs []FileDiff `json:"diffs"`
}

// lineDiffFunc is lineDiff; tests compare it with a plain implementation.
var lineDiffFunc = lineDiff

// lineOp is one run of whole lines of a line diff.
type lineOp struct {
	op    diffmatchpatch.Operation
	lines []string // without their '\n'
}

// ComputeHunkDiffs returns one FileDiff per hunk of the line diff between before and after, in
// file order, with DiffContext lines of context; changes separated by at most 2*DiffContext
// unchanged lines share a hunk. Identical texts yield an empty (non-nil) list.
//
//	PresentationMeta: func(a Args, v Value) any {
//		return filetool.DiffMeta{Diffs: filetool.ComputeHunkDiffs(a.FilePath, v.Before, v.After)}
//	},
func ComputeHunkDiffs(path, before, after string) []FileDiff {
	diffs := []FileDiff{}
	if before == after {
		return diffs
	}
	ops := lineDiffFunc(before, after)
	var (
		open     bool
		old, new []string
	)
	closeHunk := func() {
		var oldText *string
		if len(old) > 0 {
			s := strings.Join(old, "\n")
			oldText = &s
		}
		diffs = append(diffs, FileDiff{Path: path, OldText: oldText, NewText: strings.Join(new, "\n")})
		open, old, new = false, nil, nil
	}
	for i, cur := range ops {
		switch cur.op {
		case diffmatchpatch.DiffDelete, diffmatchpatch.DiffInsert:
			if !open {
				open = true
				if i > 0 {
					prev := ops[i-1].lines
					ctx := prev[max(0, len(prev)-DiffContext):]
					old = append(old, ctx...)
					new = append(new, ctx...)
				}
			}
			if cur.op == diffmatchpatch.DiffDelete {
				old = append(old, cur.lines...)
			} else {
				new = append(new, cur.lines...)
			}
		default:
			if !open {
				continue
			}
			if len(cur.lines) <= 2*DiffContext && i < len(ops)-1 {
				old = append(old, cur.lines...)
				new = append(new, cur.lines...)
				continue
			}
			ctx := cur.lines[:min(len(cur.lines), DiffContext)]
			old = append(old, ctx...)
			new = append(new, ctx...)
			closeHunk()
		}
	}
	if open {
		closeHunk()
	}
	return diffs
}

// lineDiff computes a line-mode diff (lines compared with their '\n') and returns runs of whole
// lines. The common leading and trailing lines are found by comparing bytes, and only the context
// they can contribute is split into lines: the leading run keeps its last DiffContext lines and
// the trailing run its first DiffContext lines (as the first and last runs, nothing else of them
// is ever shown). Only the differing middle goes to the diff engine.
func lineDiff(before, after string) []lineOp {
	pre := commonPrefixLines(before, after)
	suf := commonSuffixLines(before[pre:], after[pre:])
	var ops []lineOp
	if pre > 0 {
		ops = append(ops, lineOp{op: diffmatchpatch.DiffEqual, lines: lastLines(before[:pre], DiffContext)})
	}
	midA, midB := before[pre:len(before)-suf], after[pre:len(after)-suf]
	switch {
	case midA == "":
		ops = append(ops, lineOp{op: diffmatchpatch.DiffInsert, lines: trimNL(splitKeepNL(midB))})
	case midB == "":
		ops = append(ops, lineOp{op: diffmatchpatch.DiffDelete, lines: trimNL(splitKeepNL(midA))})
	default:
		ops = append(ops, middleDiff(splitKeepNL(midA), splitKeepNL(midB))...)
	}
	if suf > 0 {
		ops = append(ops, lineOp{op: diffmatchpatch.DiffEqual, lines: firstLines(before[len(before)-suf:], DiffContext)})
	}
	return ops
}

// commonPrefixLines returns the byte length of the longest common prefix of a and b made of
// whole lines (each ending with '\n').
func commonPrefixLines(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+blockSize <= n && a[i:i+blockSize] == b[i:i+blockSize] {
		i += blockSize
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return strings.LastIndexByte(a[:i], '\n') + 1
}

// commonSuffixLines returns the byte length of the longest common suffix of a and b made of whole
// lines (the last may lack its '\n'), where a and b each start at a line boundary.
func commonSuffixLines(a, b string) int {
	n := min(len(a), len(b))
	s := 0
	for s+blockSize <= n && a[len(a)-s-blockSize:len(a)-s] == b[len(b)-s-blockSize:len(b)-s] {
		s += blockSize
	}
	for s < n && a[len(a)-s-1] == b[len(b)-s-1] {
		s++
	}
	atLineStart := func(x string, at int) bool { return at == 0 || x[at-1] == '\n' }
	if atLineStart(a, len(a)-s) && atLineStart(b, len(b)-s) {
		return s
	}
	common := a[len(a)-s:]
	i := strings.IndexByte(common, '\n')
	if i < 0 {
		return 0
	}
	return s - (i + 1)
}

// blockSize is the stride of the bulk comparisons.
const blockSize = 4096

// lastLines returns the last k lines of s (which ends with '\n'), without their '\n'.
func lastLines(s string, k int) []string {
	start := len(s)
	for range k {
		if start == 0 {
			break
		}
		start = strings.LastIndexByte(s[:start-1], '\n') + 1
	}
	return trimNL(splitKeepNL(s[start:]))
}

// firstLines returns the first k lines of s, without their '\n'.
func firstLines(s string, k int) []string {
	end := 0
	for range k {
		if end == len(s) {
			break
		}
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			end = len(s)
			break
		}
		end += i + 1
	}
	return trimNL(splitKeepNL(s[:end]))
}

// middleDiff diffs two line lists with go-diff by encoding each distinct line as one rune.
func middleDiff(a, b []string) []lineOp {
	ids := make(map[string]rune, len(a)+len(b))
	lines := []string{}
	encode := func(src []string) ([]rune, bool) {
		out := make([]rune, len(src))
		for i, l := range src {
			id, ok := ids[l]
			if !ok {
				id = lineRune(len(lines))
				if id < 0 {
					return nil, false
				}
				ids[l] = id
				lines = append(lines, l)
			}
			out[i] = id
		}
		return out, true
	}
	ra, okA := encode(a)
	rb, okB := encode(b)
	if !okA || !okB {
		// More distinct lines than code points: one replacement hunk is still a correct diff.
		return []lineOp{{diffmatchpatch.DiffDelete, trimNL(a)}, {diffmatchpatch.DiffInsert, trimNL(b)}}
	}
	dmp := diffmatchpatch.New()
	var ops []lineOp
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		var ls []string
		for _, r := range d.Text {
			ls = append(ls, lines[runeLine(r)])
		}
		ops = append(ops, lineOp{op: d.Type, lines: trimNL(ls)})
	}
	return ops
}

// lineRune maps a line index to a valid, non-surrogate rune, or -1 when the index is too large.
func lineRune(i int) rune {
	r := rune(i)
	if r >= 0xD800 {
		r += 0x800
	}
	if r > 0x10FFFF {
		return -1
	}
	return r
}

// runeLine inverts lineRune.
func runeLine(r rune) int {
	if r >= 0xE000 {
		r -= 0x800
	}
	return int(r)
}

// splitKeepNL splits s into lines that keep their '\n'; the last line may lack it. "" has no lines.
func splitKeepNL(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// trimNL returns the lines without their trailing '\n'.
func trimNL(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\n")
	}
	return out
}
