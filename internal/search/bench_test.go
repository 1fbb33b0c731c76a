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

func benchGrep(b *testing.B, pattern string) { benchGrepIn(b, benchTree(b), pattern, -1) }

// benchGrepIn greps root for pattern; want, when not negative, is the number of lines that must
// match.
func benchGrepIn(b *testing.B, root, pattern string, want int) {
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
		if want >= 0 && n != want {
			b.Fatalf("%d matches, want %d", n, want)
		}
	}
}

func BenchmarkGrepLiteral(b *testing.B)     { benchGrep(b, "line199\\(") }
func BenchmarkGrepAlternation(b *testing.B) { benchGrep(b, "line7\\(|line9\\(") }
func BenchmarkGrepEveryLine(b *testing.B)   { benchGrep(b, "[0-9]{5,}") }
func BenchmarkGrepCaseFolded(b *testing.B)  { benchGrep(b, "(?i)IO\\.READER") }

// BenchmarkGrepClassRunNone: a pattern without a literal whose class run (six digits in a row)
// no line holds: the cost of searching the run alone.
func BenchmarkGrepClassRunNone(b *testing.B) { benchGrepIn(b, benchTree(b), "[0-9]{6,}", 0) }

// hugeGitignore writes a git work tree of 1,200 files (12 directories of 100) whose .gitignore is
// 8 MiB of rules a model could write: literal names, directories, extensions, prefixes and
// wildcard paths, none of which matches a file of the tree.
func hugeGitignore(b *testing.B) string {
	b.Helper()
	return gitignoreTree(b, func(i int) string {
		n := strconv.Itoa(i)
		switch i % 5 {
		case 0:
			return "generated_" + n + ".txt\n"
		case 1:
			return "build" + n + "/\n"
		case 2:
			return "*.ext" + n + "\n"
		case 3:
			return "tmp" + n + "*\n"
		}
		return "src/gen" + n + "/**/*.pb.go\n"
	})
}

// wildcardGitignore is hugeGitignore's tree with 8 MiB of rules that all need the wildcard
// matcher, the worst case per entry.
func wildcardGitignore(b *testing.B) string {
	b.Helper()
	return gitignoreTree(b, func(i int) string { return "*z" + strconv.Itoa(i) + "?q*\n" })
}

// gitignoreTree writes the 1,200-file work tree with a .gitignore of just under 8 MiB of the lines
// rule(0), rule(1), ...
func gitignoreTree(b *testing.B, rule func(int) string) string {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	var ig strings.Builder
	for i := 0; ; i++ {
		line := rule(i)
		if ig.Len()+len(line) > 8<<20 {
			break
		}
		ig.WriteString(line)
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(ig.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for d := range 12 {
		dir := filepath.Join(root, "d"+strconv.Itoa(d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(f)+".go"), []byte("package x\nvar needle = 1\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

func BenchmarkGrepHugeGitignore(b *testing.B) { benchGrepIn(b, hugeGitignore(b), "needle", 1200) }
func BenchmarkGrepWildcardGitignore(b *testing.B) {
	benchGrepIn(b, wildcardGitignore(b), "needle", 1200)
}
