package filetool

import (
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// plainLineDiff is lineDiff without the byte-level shortcuts: every line is split, common
// leading and trailing lines are trimmed line by line and kept whole, and the middle goes to the
// diff engine.
func plainLineDiff(before, after string) []lineOp {
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
	if pre > 0 {
		ops = append(ops, lineOp{diffmatchpatch.DiffEqual, trimNL(a[:pre])})
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	switch {
	case len(midA) == 0:
		ops = append(ops, lineOp{diffmatchpatch.DiffInsert, trimNL(midB)})
	case len(midB) == 0:
		ops = append(ops, lineOp{diffmatchpatch.DiffDelete, trimNL(midA)})
	default:
		ops = append(ops, middleDiff(midA, midB)...)
	}
	if suf > 0 {
		ops = append(ops, lineOp{diffmatchpatch.DiffEqual, trimNL(a[len(a)-suf:])})
	}
	return ops
}

// hunksWith runs the hunking of ComputeHunkDiffs over ops.
func hunksWith(ops []lineOp) []FileDiff {
	saved := lineDiffFunc
	defer func() { lineDiffFunc = saved }()
	lineDiffFunc = func(string, string) []lineOp { return ops }
	return ComputeHunkDiffs("f", "x", "y")
}

// FuzzHunkDiffs checks that the shortcuts of lineDiff never change the hunks.
func FuzzHunkDiffs(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("x", "y")
	f.Add("", "new\n")
	f.Add("gone\n", "")
	f.Add("abc", "abc\n")
	f.Add("x\nabc", "y\nabc")
	f.Add("abc\n", "zzabc\n")
	f.Add(strings.Repeat("l\n", 30)+"a\n"+strings.Repeat("m\n", 30), strings.Repeat("l\n", 30)+"b\n"+strings.Repeat("m\n", 30))
	f.Fuzz(func(t *testing.T, before, after string) {
		if before == after {
			return
		}
		want := hunksWith(plainLineDiff(before, after))
		got := ComputeHunkDiffs("f", before, after)
		if len(got) != len(want) {
			t.Fatalf("got %d hunks, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i].NewText != want[i].NewText || (got[i].OldText == nil) != (want[i].OldText == nil) ||
				(got[i].OldText != nil && *got[i].OldText != *want[i].OldText) {
				t.Fatalf("hunk %d: got %+v, want %+v", i, got[i], want[i])
			}
		}
	})
}
