package toolfs

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// TestWindowSpanIsTheSeenWindow: the span windowString returns is the bytes of the lines it kept,
// so the read's seen record made from it (seen.OfWindow) is the one seen.OfText makes from the
// whole text, also when the byte cap, the line cap or the budget ends the window early (and when
// the budget takes back the last line).
func TestWindowSpanIsTheSeenWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	alphabet := []string{"a", "b", "é", "€", " ", "\r", "\n", "\n", "\n"}
	cut := map[string]int{}
	for i := range 4000 {
		var sb strings.Builder
		for range rng.IntN(300) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		req := WindowRequest{Offset: 1 + rng.IntN(8), Limit: 1 + rng.IntN(40), MaxLineLength: 1 + rng.IntN(30),
			MaxBytes: 1 + rng.IntN(400), PathBytes: len("/abs/f.txt")}
		if i%2 == 0 {
			req.MaxBytes, req.Budget = 1<<20, 150+rng.IntN(300)
		}
		res, span, err := windowString(text, req, "/abs/f.txt")
		if err != nil {
			continue
		}
		switch {
		case res.TruncatedByBudget:
			cut["budget"]++
		case res.TruncatedByBytes:
			cut["bytes"]++
		}
		want := seen.OfText(text, req.Offset, len(res.Lines))
		require.Equal(t, want, seen.OfWindow(span, req.Offset, len(res.Lines), res.TotalLines), "case %d: %+v %q", i, req, text)
	}
	require.Positive(t, cut["budget"])
	require.Positive(t, cut["bytes"])
}
