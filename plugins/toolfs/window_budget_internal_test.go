package toolfs

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
)

// TestRoomDropsTheLastLineForALongFooter: a window that ends at its limit gets the "Showing lines
// ... of T" footer, longer than the capped one the lines were admitted with once T has enough
// digits (12 with today's texts); over reports it, and the line before the last still fits with
// the capped footer.
func TestRoomDropsTheLastLineForALongFooter(t *testing.T) {
	total := 1
	for total < math.MaxInt/10 && readFooterLen(1, 2, total, false) <= readFooterLen(1, 2, 0, true) {
		total *= 10
	}
	if readFooterLen(1, 2, total, false) <= readFooterLen(1, 2, 0, true) {
		t.Skip("the window footer is never longer than the capped one")
	}
	r := newRoom(WindowRequest{Offset: 1, Budget: 1 << 20, PathBytes: 4})
	r.add(1, 4)
	r.add(2, 4)
	r.max = r.fixed + r.used + readFooterLen(1, 2, total, false) - 1
	require.True(t, r.over(2, 2, 2, total))
	require.False(t, r.over(2, 2, 2, 3), "a short total fits")
	require.False(t, r.over(2, 3, 2, total), "capped footer: what the lines were admitted with")
	r.used -= digits(2) + 4 + 3
	require.True(t, r.fixed+r.used+readFooterLen(1, 1, total, true) <= r.max)
}

// TestRoomRendersTheFooterItCounts: the budget's footer lengths come from rendering the footer
// texts, so a footer worded otherwise (here the capped one naming its end line and next offset
// several times, and the envelope otherwise) still keeps every window within the budget, tightly: the next
// line would not have fit. Arithmetic on the old footer's shape would overrun it.
func TestRoomRendersTheFooterItCounts(t *testing.T) {
	savedFooter, savedEnvelope := footerCapped, envelopeText
	savedHead, savedMiddle, savedTail := envelopeHead, envelopeMiddle, envelopeTail
	t.Cleanup(func() {
		footerCapped, envelopeText = savedFooter, savedEnvelope
		envelopeHead, envelopeMiddle, envelopeTail = savedHead, savedMiddle, savedTail
	})
	other := texts.MustParse("other.json", []byte(`{
		"capped": "(Capped at line {end}: lines {offset}-{end} shown, {end} the last, {end} again; offset={next}, {next}, {next}.)",
		"envelope": "<file path=\"{path}\">\n{body}\n</file>"}`))
	footerCapped = other.Template("capped", "offset", "end", "next")
	envelopeText = other.Template("envelope", "path", "body")
	envelopeHead, envelopeMiddle, envelopeTail = envelopeParts()
	require.Equal(t, []string{`<file path="`, "\">\n", "\n</file>"}, []string{envelopeHead, envelopeMiddle, envelopeTail})

	const path = "/some/file.txt"
	var text strings.Builder
	for i := range 20_000 {
		text.WriteString(strings.Repeat("z", i%7) + "\n")
	}
	for _, offset := range []int{1, 5, 95, 990, 9_990} {
		for budget := 150; budget < 1_200; budget += 37 {
			req := WindowRequest{Offset: offset, Limit: 20_000, MaxLineLength: 2_000, MaxBytes: 1 << 20, Budget: budget, PathBytes: len(path)}
			res, err := WindowString(text.String(), req, path)
			require.NoError(t, err)
			v := ReadValue{Path: path, Offset: offset, Lines: res.Lines, TotalLines: res.TotalLines}
			out := RenderRead(v, req.Limit)
			require.LessOrEqual(t, len(out), budget, "offset %d: %s", offset, out)
			end := endLineOf(v)
			next := RenderRead(ReadValue{Path: path, Offset: offset, Lines: append(slices.Clone(res.Lines),
				Line{Number: end + 1, Text: strings.Repeat("z", end%7)}), TotalLines: res.TotalLines}, req.Limit)
			require.Greater(t, len(next), budget, "offset %d budget %d: one more line would have fit:\n%s\n%s", offset, budget, out, next)
		}
	}
}

// TestCappedLenIsTheRenderedFooter: the room's cached capped-footer length is the rendered footer's,
// across the numbers' digit boundaries.
func TestCappedLenIsTheRenderedFooter(t *testing.T) {
	for _, offset := range []int{1, 8, 98, 12_345} {
		r := newRoom(WindowRequest{Offset: offset, Budget: 1 << 30})
		for n := offset; n < offset+120_000; n++ {
			r.digits(n)
			if got, want := r.cappedLen(n), len(readFooter(offset, n, 0, true)); got != want {
				t.Fatalf("offset %d line %d: cappedLen %d, rendered %d", offset, n, got, want)
			}
		}
	}
}
