package seen

import (
	"strings"
	"testing"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/stretchr/testify/require"
)

// Past the deadline the line diff is the coarse one: the common first and last lines equal, the
// rest removed and added whole; it is the exact diff's text on both sides (docs/fs.md
// "Staleness").
func TestLineOpsPastTheDeadlineIsCoarse(t *testing.T) {
	a := "h\n1\n2\nx\n3\nt\n"
	b := "h\n1\nX\n3\n4\nt"
	exact := lineOps(a, b, time.Now().Add(time.Hour))
	require.Greater(t, len(exact), 4, "the exact diff keeps 1 and 3")
	past := lineOps(a, b, time.Now().Add(-time.Second))
	require.Equal(t, []op{
		{diffmatchpatch.DiffEqual, []string{"h\n", "1\n"}},
		{diffmatchpatch.DiffDelete, []string{"2\n", "x\n", "3\n", "t\n"}},
		{diffmatchpatch.DiffInsert, []string{"X\n", "3\n", "4\n", "t"}},
	}, past)
	for _, ops := range [][]op{exact, past} {
		var olds, news strings.Builder
		for _, o := range ops {
			for _, l := range o.lines {
				if o.kind != diffmatchpatch.DiffInsert {
					olds.WriteString(l)
				}
				if o.kind != diffmatchpatch.DiffDelete {
					news.WriteString(l)
				}
			}
		}
		require.Equal(t, a, olds.String())
		require.Equal(t, b, news.String())
	}
	require.Equal(t, []op{{diffmatchpatch.DiffEqual, []string{"a\n"}}}, coarseOps("a\n", "a\n"))
	require.Nil(t, coarseOps("", ""))
}
