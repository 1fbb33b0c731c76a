package textedit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/textedit"
)

// BenchmarkApplyOneLine2000 replaces one line of a 2,000-line file: the edit's search and the
// build of its text (Plan's single pass and Body's splice at the known match, against the
// count-then-replace of strings.Replace).
func BenchmarkApplyOneLine2000(b *testing.B) {
	var sb strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&sb, "line %05d abcdefghij\n", i)
	}
	doc, f := textedit.Decode([]byte(sb.String()))
	if f != textedit.None {
		b.Fatal(f)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, n, f := doc.Apply("line 01000 abcdefghij\n", "line 01000 ABCDEFGHIJ\n", false); f != textedit.None || n != 1 {
			b.Fatal(f, n)
		}
	}
}
