package seen_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// BenchmarkChangesScattered is the cost of one stale refusal's diff on a large file (issue 31;
// run with -benchtime=1x): a window of 20,000 lines (under 64 KiB, so its text is kept) read whole,
// then every 7th line changed.
func BenchmarkChangesScattered(b *testing.B) {
	var read, now strings.Builder
	for i := range 20_000 {
		l := strconv.FormatInt(36+int64(i)*7919%1260, 36) + "\n" // two characters
		read.WriteString(l)
		if i%7 == 3 {
			l = l[:1] + "\n"
		}
		now.WriteString(l)
	}
	s := seen.Whole(read.String())
	d := seen.Split(now.String())
	for b.Loop() {
		if seen.Changes(s, d, seen.DiffMaxBytes) == "" {
			b.Fatal("no change")
		}
	}
}
