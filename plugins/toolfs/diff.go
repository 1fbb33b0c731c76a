package toolfs

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

// lineOp is one run of whole lines of a line diff.
type lineOp struct {
	op    diffmatchpatch.Operation
	lines []string // without their '\n'
}

// ComputeHunkDiffs returns one FileDiff per hunk of the line diff between before and after, in
// file order, with DiffContext lines of context; changes separated by at most 2*DiffContext
// unchanged lines share a hunk. Identical texts yield an empty (non-nil) list.
func ComputeHunkDiffs(path, before, after string) []FileDiff {
	diffs := []FileDiff{}
	if before == after {
		return diffs
	}
	ops := lineDiff(before, after)
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
// lines. Common leading and trailing lines are trimmed before the diff engine runs.
func lineDiff(before, after string) []lineOp {
	a, b := splitKeepNL(before), splitKeepNL(after)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	push := func(op diffmatchpatch.Operation, lines []string) {
		if len(lines) == 0 {
			return
		}
		if n := len(ops); n > 0 && ops[n-1].op == op {
			ops[n-1].lines = append(ops[n-1].lines, lines...)
			return
		}
		ops = append(ops, lineOp{op: op, lines: lines})
	}
	push(diffmatchpatch.DiffEqual, trimNL(a[:pre]))
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	switch {
	case len(midA) == 0:
		push(diffmatchpatch.DiffInsert, trimNL(midB))
	case len(midB) == 0:
		push(diffmatchpatch.DiffDelete, trimNL(midA))
	default:
		for _, op := range middleDiff(midA, midB) {
			push(op.op, op.lines)
		}
	}
	push(diffmatchpatch.DiffEqual, trimNL(a[len(a)-suf:]))
	return ops
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
