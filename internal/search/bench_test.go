package search_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
)

// benchTree writes a deterministic tree of 20 directories of 25 files, each of 200 lines, under a
// new temporary directory and returns its physical path.
func benchTree(b *testing.B) string {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	var body strings.Builder
	for i := range 200 {
		body.WriteString("func line" + strconv.Itoa(i) + "(r io.Reader) { return 12345 + x }\n")
	}
	for d := range 20 {
		dir := filepath.Join(root, "d"+strconv.Itoa(d), "sub")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 25 {
			name := filepath.Join(dir, "f"+strconv.Itoa(f)+".go")
			if err := os.WriteFile(name, []byte(body.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

func BenchmarkFiles(b *testing.B) {
	root := benchTree(b)
	g, err := search.CompileGlob("**/*.go")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := search.Files(context.Background(), root, g, search.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchGrep(b *testing.B, pattern string) {
	root := benchTree(b)
	m, err := search.CompileMatcher(pattern)
	if err != nil {
		b.Fatal(err)
	}
	q := search.GrepQuery{Root: root, Matcher: m, MaxLineBytes: 2000}
	for b.Loop() {
		n := 0
		if _, err := search.Grep(context.Background(), q, func(search.LineMatch) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGrepLiteral(b *testing.B)     { benchGrep(b, "line199\\(") }
func BenchmarkGrepAlternation(b *testing.B) { benchGrep(b, "line7\\(|line9\\(") }
func BenchmarkGrepEveryLine(b *testing.B)   { benchGrep(b, "[0-9]{5,}") }
func BenchmarkGrepCaseFolded(b *testing.B)  { benchGrep(b, "(?i)IO\\.READER") }
