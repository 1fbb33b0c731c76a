package filetool

import "github.com/sergi/go-diff/diffmatchpatch"

// LineRun is one run of whole lines of a line diff, without their '\n': Op is '-' (removed), '+'
// (added) or ' ' (unchanged; a run at either end keeps only the DiffContext lines nearest the
// change).
type LineRun struct {
	Op    byte
	Lines []string
}

// LineRuns returns the line diff of before and after (the one ComputeHunkDiffs hunks) as runs,
// in order.
func LineRuns(before, after string) []LineRun {
	ops := lineDiffFunc(before, after)
	runs := make([]LineRun, 0, len(ops))
	for _, o := range ops {
		op := byte(' ')
		switch o.op {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		runs = append(runs, LineRun{Op: op, Lines: o.lines})
	}
	return runs
}
