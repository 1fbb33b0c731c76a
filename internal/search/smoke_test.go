package search

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestSmokeGrep(t *testing.T) {
	root := os.Getenv("SMOKE_ROOT")
	if root == "" {
		t.Skip()
	}
	for _, pat := range []string{"[0-9]{5,}", "[A-Z][a-z]+[0-9]+", `[a-z]+_[a-z]+\(`} {
		m, err := CompileMatcher(pat)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		n := 0
		_, err = Grep(context.Background(), GrepQuery{Root: root, Matcher: m, MaxLineBytes: 2000}, func(LineMatch) error { n++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		l, f, s := m.Literals()
		t.Logf("%-22q %7d lines %v lits=%q fold=%v suff=%v", pat, n, time.Since(start), l, f, s)
	}
}
