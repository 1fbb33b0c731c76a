package mcphost_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigFile writes a 2,000-line file (about 44 KB) into dir.
func bigFile(tb testing.TB, dir string) string {
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

// spell is the edited line of the 2,000-line file: it toggles between two spellings so every call
// changes exactly one line.
func spell(i int) string {
	if i%2 == 0 {
		return "line 01000 abcdefghij"
	}
	return "line 01000 ABCDEFGHIJ"
}
