package charset

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/editorconfig/editorconfig-core-go/v2"
	"github.com/stretchr/testify/require"
)

func match(t testing.TB, glob, name string) bool {
	budget := editorConfigMaxPattern
	re, err := compileGlob(glob, &budget)
	require.NoError(t, err, glob)
	return re.MatchString(name)
}

var ordinaryGlobs = []string{
	"/**/*", "/**/*.txt", "/**/*.{c,h}", "/src/**/*.go", "/a/*/b", "/**/?.md", "/**/[ab].x", "/**/[!ab].x",
	"/**/{a,b{c,d}}", "/**/file{1..12}.txt", "/**/v{-3..3}", "/**/\\*.lit", "/**/{single}", "/**/{a,b",
	"/**/a}", "/**/[a/b]", "/lib/**", "/**/x/**/y", "/**/*.{js,ts}{,x}", "/**/{}", "/**/[*]", "/**/{0..0}",
}

var names = []string{
	"/a.txt", "/src/x/y.go", "/src/y.go", "/a/z/b", "/a/b", "/q.md", "/qq.md", "/a.x", "/c.x", "/ac",
	"/bd", "/file1.txt", "/file12.txt", "/file13.txt", "/file01.txt", "/v-3", "/v3", "/v-4", "/*.lit",
	"/a.lit", "/{single}", "/single", "/{a,b", "/a}", "/[a/b]", "/lib/x/y", "/x/y", "/x/m/n/y", "/f.jsx",
	"/f.ts", "/f.tsx", "/{}", "/*", "/0", "/d/a.txt",
}

// On ordinary globs (no numeric range of over a few integers, none given high to low) the
// expression agrees with EditorConfig's Go core, the one it replaces.
func TestGlobAgreesWithEditorConfigCore(t *testing.T) {
	for _, g := range ordinaryGlobs {
		for _, n := range names {
			want, err := editorconfig.FnmatchCase(g, n)
			require.NoError(t, err)
			require.Equal(t, want, match(t, g, n), "%s ~ %s", g, n)
		}
	}
}

// A glob's expression grows with its length, not with its ranges' widths, and is refused past
// the budget.
func TestGlobSizeBounded(t *testing.T) {
	require.Less(t, len(translateGlob("{0..9223372036854775807}")), 2000)
	require.Less(t, len(translateGlob("{-9223372036854775808..9223372036854775807}")), 4000)
	budget := 100
	_, err := compileGlob(strings.Repeat("{0..9223372036854775807}", 3), &budget)
	require.ErrorIs(t, err, errPatternBudget)
}

// FuzzRangeExpr: rangeExpr matches exactly the integers of its range, as strconv writes them.
func FuzzRangeExpr(f *testing.F) {
	for _, s := range [][3]int64{{0, 9}, {1, 12}, {-3, 3}, {0, 2000000}, {-9223372036854775808, 9223372036854775807}, {19, 21}, {7, 7}, {-100, -7}} {
		f.Add(s[0], s[1], s[2], "")
	}
	f.Fuzz(func(t *testing.T, lo, hi, n int64, s string) {
		lo, hi = min(lo, hi), max(lo, hi)
		re := regexp.MustCompile("^" + rangeExpr(lo, hi) + "$")
		if got, want := re.MatchString(strconv.FormatInt(n, 10)), lo <= n && n <= hi; got != want {
			t.Fatalf("[%d, %d] ~ %d: %v", lo, hi, n, got)
		}
		for _, m := range []int64{lo, hi, lo + 1, hi - 1, lo - 1, hi + 1} {
			if got, want := re.MatchString(strconv.FormatInt(m, 10)), lo <= m && m <= hi; got != want {
				t.Fatalf("[%d, %d] ~ %d: %v", lo, hi, m, got)
			}
		}
		if v, err := strconv.ParseInt(s, 10, 64); (err != nil || strconv.FormatInt(v, 10) != s) && re.MatchString(s) {
			t.Fatalf("[%d, %d] ~ %q", lo, hi, s)
		}
	})
}

// FuzzGlob: any glob translates without a panic to an expression that compiles (or is refused
// for the budget) and grows linearly with it; on globs without numeric ranges it agrees with
// EditorConfig's Go core wherever that core itself answers.
func FuzzGlob(f *testing.F) {
	for _, g := range ordinaryGlobs {
		f.Add(g, "/a/b.txt")
	}
	f.Add("[", "/[")
	f.Add("{9223372036854775806..99999999999999999999}{-1..1}", "/9223372036854775807-1")
	f.Fuzz(func(t *testing.T, glob, name string) {
		budget := editorConfigMaxPattern
		src := translateGlob(glob)
		if len(src) > 1000+200*len(glob) {
			t.Fatalf("%q: expression of %d bytes", glob, len(src))
		}
		re, err := compileGlob(glob, &budget)
		if err != nil {
			return
		}
		if numericRange.MatchString(glob) || strings.Contains(glob, "..") {
			return
		}
		want, ok := coreMatch(glob, name)
		if ok && want != re.MatchString(name) {
			t.Fatalf("%q ~ %q: core %v", glob, name, want)
		}
	})
}

// coreMatch is the Go core's answer; ok is false where it panics or errs.
func coreMatch(glob, name string) (m, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	m, err := editorconfig.FnmatchCase(glob, name)
	return m, err == nil
}
