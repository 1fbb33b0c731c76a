package patch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/patch"
)

// BenchmarkApplyNonMatching is the cost of a chunk that matches nowhere, its lines found almost
// everywhere in the file (issue 31's 30 KB patch; run with -benchtime=1x): a 20,000-line file of
// one repeated line, a chunk of 15,000 of those lines (30 KB) and one that is not there; and a file
// alternating two lines with a chunk alternating them but for its last line.
func BenchmarkApplyNonMatching(b *testing.B) {
	repeated := slices.Repeat([]string{"x"}, 15_000)
	alternating := make([]string, 15_000)
	for i := range alternating {
		alternating[i] = "ab"[i%2 : i%2+1]
	}
	alternating[len(alternating)-1] = alternating[len(alternating)-2]
	for _, c := range []struct {
		name string
		raw  string
		old  []string
	}{
		{"repeated-line", strings.Repeat("x\n", 20_000), append(repeated, "y")},
		{"alternating", strings.Repeat("a\nb\n", 10_000), alternating},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := patch.Apply(b.Context(), c.raw, []patch.Chunk{{Old: c.old, New: c.old}}); err == nil {
					b.Fatal("found")
				}
			}
		})
	}
}

// BenchmarkParseLongLine is the cost and the error size of a patch whose file header is a 1 MB
// line (issue 31; the error's bytes are reported as errbytes).
func BenchmarkParseLongLine(b *testing.B) {
	text := "*** Begin Patch\n" + strings.Repeat("x", 1<<20) + "\n*** End Patch"
	var n int
	for b.Loop() {
		_, err := patch.Parse(text)
		n = len(err.Error())
	}
	b.ReportMetric(float64(n), "errbytes")
}
