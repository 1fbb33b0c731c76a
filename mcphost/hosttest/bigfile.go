package hosttest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BigFile writes the benchmarks' 2,000-line file (about 44 KB), big.txt, into dir and returns its
// path.
func BigFile(tb testing.TB, dir string) string {
	tb.Helper()
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "line %05d abcdefghij\n", i)
	}
	p := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Spell is line 1,000 of BigFile's file as the i-th edit leaves it: it toggles between two
// spellings, so every edit changes exactly one line.
func Spell(i int) string {
	if i%2 == 0 {
		return "line 01000 abcdefghij"
	}
	return "line 01000 ABCDEFGHIJ"
}
