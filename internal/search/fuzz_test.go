package search_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cordon-dev/cordon/internal/search"
)

// FuzzCompileGlob: compiling never panics, and a compiled pattern without "/" matches a path by
// its base name exactly as doublestar matches the name.
func FuzzCompileGlob(f *testing.F) {
	for _, s := range []string{"*.go", "**/*.ts", "src/{a,b}/*.c", "[a-", "{", "\\", "a/**/b", "/x", "./y", "*.{js,jsx}"} {
		f.Add(s, "dir/sub/name.go")
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		g, err := search.CompileGlob(pattern)
		if err != nil {
			if doublestar.ValidatePattern(strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")) && strings.Contains(pattern, "/") {
				t.Fatalf("%q refused but valid", pattern)
			}
			return
		}
		got := g.Match(rel)
		if !strings.Contains(pattern, "/") {
			want, _ := doublestar.Match(pattern, rel[strings.LastIndexByte(rel, '/')+1:])
			if got != want {
				t.Fatalf("%q on %q: %v, doublestar says %v", pattern, rel, got, want)
			}
		}
	})
}

// FuzzMatcher: the prefiltered matcher decides every line as regexp does.
func FuzzMatcher(f *testing.F) {
	for _, s := range [][2]string{{"func NewReader", "func NewReader(x)"}, {"(?i)task", "TA\u017fK"}, {"a|b", "b"},
		{"colou?r", "colr"}, {`\bfoo\b`, "a foo"}, {"(?i)k", "\u212a"}, {"x{2,}y", "xxy"}, {"^$", ""},
		{"[0-9]{5,}", "a12345"}, {"^[0-9]{4}", "x1234"}, {"(?i)ab[0-9]+", "AB1"}, {"[0-9]{3}\\s", "123\r"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, line string) {
		re, err := regexp.Compile(pattern)
		m, merr := search.CompileMatcher(pattern)
		if (err == nil) != (merr == nil) {
			t.Fatalf("%q: regexp %v, matcher %v", pattern, err, merr)
		}
		if err != nil || strings.ContainsAny(line, "\n") {
			return
		}
		if got, want := m.MatchLine([]byte(line)), re.MatchString(line); got != want {
			lits, fold, suff := m.Literals()
			t.Fatalf("%q on %q: %v, regexp %v (literals %q fold %v sufficient %v)", pattern, line, got, want, lits, fold, suff)
		}
	})
}
