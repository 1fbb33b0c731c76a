package toolfs_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/stretchr/testify/require"
)

// budgetPath is the display path the budget tests render.
const budgetPath = "/abs/f.txt"

// keptLine is line n (1-based) of text as the window keeps it: '\n'-split, one '\r' dropped, cut
// to maxLen code points with the truncation suffix.
func keptLine(text string, n, maxLen int) (string, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" || n > len(lines) {
		return "", false
	}
	l := lines[n-1]
	if utf8.RuneCountInString(l) > maxLen+1 {
		l = string([]rune(l)[:maxLen+1])
	}
	l = strings.TrimSuffix(l, "\r")
	if r := []rune(l); len(r) > maxLen {
		l = string(r[:maxLen]) + truncatedTo(maxLen)
	}
	return l, true
}

// TestWindowBudget checks, over random texts and requests, that the whole rendered text fits the
// budget, that the streamed and whole-text windows agree, that the footer continues where the
// lines end, that one more line would not have fit, and that at least one line is always shown.
func TestWindowBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []string{"a", "b", "é", "€", "😀", " ", "\t", "\r", "\n", "\n", "\n"}
	for i := range 3000 {
		var sb strings.Builder
		for range rng.IntN(400) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		total := strings.Count(text, "\n")
		if text != "" && !strings.HasSuffix(text, "\n") {
			total++
		}
		if total == 0 {
			continue
		}
		req := toolfs.WindowRequest{Offset: 1 + rng.IntN(total), Limit: 1 + rng.IntN(60), MaxLineLength: 1 + rng.IntN(40),
			MaxBytes: 1 << 20, Budget: 200 + rng.IntN(400), PathBytes: len(budgetPath)}
		if i%10 == 0 {
			req.Budget = 1 + rng.IntN(200) // too small for the envelope: still one line, never a panic
		}
		whole, err := toolfs.WindowString(text, req, budgetPath)
		require.NoError(t, err)
		streamed, err := build(t, text, req, 1+rng.IntN(7))
		require.NoError(t, err)
		require.Equal(t, texts(whole.Lines), texts(streamed.Lines), "case %d: %+v %q", i, req, text)
		require.Equal(t, whole.TruncatedByBudget, streamed.TruncatedByBudget, "case %d", i)
		require.NotEmpty(t, whole.Lines, "case %d: a window always shows a line", i)

		v := toolfs.ReadValue{Path: budgetPath, Offset: req.Offset, Lines: whole.Lines, TotalLines: whole.TotalLines}
		out := toolfs.RenderRead(v, req.Limit)
		last := whole.Lines[len(whole.Lines)-1].Number
		if req.Budget >= 200 {
			require.LessOrEqual(t, len(out), req.Budget, "case %d: %q", i, out)
		}
		if last < whole.TotalLines {
			require.True(t, strings.HasSuffix(out, capped(req.Offset, last)+"\n</content>") ||
				strings.HasSuffix(out, showing(req.Offset, last, whole.TotalLines)+"\n</content>"), "case %d: %q", i, out)
		}
		for j, l := range whole.Lines {
			require.Equal(t, req.Offset+j, l.Number)
		}
		if !whole.TruncatedByBudget {
			continue
		}
		next, ok := keptLine(text, last+1, req.MaxLineLength)
		require.True(t, ok, "case %d: stopped by the budget with no line left", i)
		more := append(append([]toolfs.Line(nil), whole.Lines...), toolfs.Line{Number: last + 1, Text: next})
		capped := toolfs.RenderRead(toolfs.ReadValue{Path: budgetPath, Offset: req.Offset, Lines: more, TotalLines: last + 2}, len(more)+1)
		actual := toolfs.RenderRead(toolfs.ReadValue{Path: budgetPath, Offset: req.Offset, Lines: more, TotalLines: whole.TotalLines}, req.Limit)
		require.True(t, len(capped) > req.Budget || len(actual) > req.Budget, "case %d: one more line fits: %q", i, actual)
	}
}

// TestWindowBudgetCutsALoneLongLine: a first line that alone is over the budget is cut to fit,
// with the truncation suffix naming what it kept, so the read still moves on.
func TestWindowBudgetCutsALoneLongLine(t *testing.T) {
	text := strings.Repeat("é", 2000) + "\n" + strings.Repeat("x", 2000) + "\n"
	req := toolfs.WindowRequest{Offset: 1, Limit: 2000, MaxLineLength: 2000, MaxBytes: 51200, Budget: 400,
		PathBytes: len(budgetPath)}
	for _, chunk := range []int{0, 1, 5} {
		res, err := build(t, text, req, chunk)
		require.NoError(t, err)
		require.Len(t, res.Lines, 1)
		out := toolfs.RenderRead(toolfs.ReadValue{Path: budgetPath, Offset: 1, Lines: res.Lines, TotalLines: res.TotalLines}, req.Limit)
		require.LessOrEqual(t, len(out), 400)
		line, kept := res.Lines[0].Text, ""
		for k := range line { // the kept text: the line is it and the notice for its code points
			if line[:k]+truncatedTo(utf8.RuneCountInString(line[:k])) == line {
				kept = line[:k]
				break
			}
		}
		require.NotEmpty(t, kept, line)
		require.Equal(t, strings.Repeat("é", utf8.RuneCountInString(kept)), kept)
		require.True(t, strings.HasSuffix(out, "\n\n"+capped(1, 1)+"\n</content>"), out)
		whole, err := toolfs.WindowString(text, req, budgetPath)
		require.NoError(t, err)
		require.Equal(t, texts(whole.Lines), texts(res.Lines))
	}
}
