package filetool_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/tools/filetool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line%d\n", i)
	}
	return b.String()
}

func sp(s string) *string { return &s }

func TestComputeHunkDiffs(t *testing.T) {
	cases := []struct {
		name          string
		before, after string
		want          []filetool.FileDiff
	}{
		{"identical", "same\n", "same\n", []filetool.FileDiff{}},
		{"one line with context", numbered(8), strings.Replace(numbered(8), "line4", "CHANGED", 1), []filetool.FileDiff{{
			Path:    "f.txt",
			OldText: sp("line1\nline2\nline3\nline4\nline5\nline6\nline7"),
			NewText: "line1\nline2\nline3\nCHANGED\nline5\nline6\nline7",
		}}},
		{"pure insertion", "", "brand new\n", []filetool.FileDiff{{Path: "f.txt", OldText: nil, NewText: "brand new"}}},
		{"pure deletion", "gone\n", "", []filetool.FileDiff{{Path: "f.txt", OldText: sp("gone"), NewText: ""}}},
		{"no trailing newline", "x", "y", []filetool.FileDiff{{Path: "f.txt", OldText: sp("x"), NewText: "y"}}},
		{"edit with context both sides", "a\nb\nc\nOLD\nd\ne\nf\n", "a\nb\nc\nNEW\nd\ne\nf\n", []filetool.FileDiff{{
			Path: "f.txt", OldText: sp("a\nb\nc\nOLD\nd\ne\nf"), NewText: "a\nb\nc\nNEW\nd\ne\nf",
		}}},
		{"insertion inside", "a\nb\n", "a\nX\nb\n", []filetool.FileDiff{{Path: "f.txt", OldText: sp("a\nb"), NewText: "a\nX\nb"}}},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, filetool.ComputeHunkDiffs("f.txt", tc.before, tc.after), tc.name)
	}
}

func TestComputeHunkDiffsContextAndHunking(t *testing.T) {
	before := numbered(20)
	d := filetool.ComputeHunkDiffs("f.txt", before, strings.Replace(before, "line10\n", "CHANGED\n", 1))
	require.Len(t, d, 1)
	old := strings.Split(*d[0].OldText, "\n")
	assert.Len(t, old, 7)
	assert.Equal(t, "line7", old[0])
	assert.Len(t, strings.Split(d[0].NewText, "\n"), 7)

	// Changes at lines 3 and 16 are 12 unchanged lines apart: two hunks.
	after := strings.Replace(strings.Replace(before, "line3\n", "A\n", 1), "line16\n", "B\n", 1)
	d = filetool.ComputeHunkDiffs("f.txt", before, after)
	require.Len(t, d, 2)
	assert.Equal(t, "line1\nline2\nline3\nline4\nline5\nline6", *d[0].OldText)
	assert.Equal(t, "line1\nline2\nA\nline4\nline5\nline6", d[0].NewText)
	assert.Equal(t, "line13\nline14\nline15\nline16\nline17\nline18\nline19", *d[1].OldText)
	assert.Equal(t, "line13\nline14\nline15\nB\nline17\nline18\nline19", d[1].NewText)

	// Exactly 6 unchanged lines between two changes (lines 3 and 10) share one hunk.
	after = strings.Replace(strings.Replace(before, "line3\n", "A\n", 1), "line10\n", "B\n", 1)
	d = filetool.ComputeHunkDiffs("f.txt", before, after)
	require.Len(t, d, 1)
	assert.Equal(t, "line1\nline2\nA\nline4\nline5\nline6\nline7\nline8\nline9\nB\nline11\nline12\nline13", d[0].NewText)

	// Seven unchanged lines (changes at 3 and 11) split.
	after = strings.Replace(strings.Replace(before, "line3\n", "A\n", 1), "line11\n", "B\n", 1)
	assert.Len(t, filetool.ComputeHunkDiffs("f.txt", before, after), 2)
}

func TestComputeHunkDiffsLargeUniqueLines(t *testing.T) {
	// Far more distinct lines than fit the fast path still produce a correct single hunk.
	var a, b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d := filetool.ComputeHunkDiffs("f", "keep\n"+a.String(), "keep\n"+b.String())
	require.Len(t, d, 1)
	assert.True(t, strings.HasPrefix(*d[0].OldText, "keep\na0\n"))
	assert.True(t, strings.HasPrefix(d[0].NewText, "keep\nb0\n"))
}

func TestLineRuns(t *testing.T) {
	assert.Equal(t, []filetool.LineRun{
		{Op: ' ', Lines: []string{"b", "c", "d"}},
		{Op: '-', Lines: []string{"x"}},
		{Op: '+', Lines: []string{"y", "z"}},
		{Op: ' ', Lines: []string{"e", "f", "g"}},
	}, filetool.LineRuns("a\nb\nc\nd\nx\ne\nf\ng\nh\n", "a\nb\nc\nd\ny\nz\ne\nf\ng\nh\n"))
}
