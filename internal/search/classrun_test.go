package search_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
)

// Patterns without a required literal but with a run of byte classes (docs/search.md): the lines
// grep reports are exactly those regexp matches, line by line, whether the run settles the match
// (five digits in a row) or only points at the lines the regexp then decides (anchors, \s, a run
// inside a longer pattern), across CRLF line ends, runs cut by a line end, case-folded letters
// and bytes that are not UTF-8.
func TestGrepClassRunAgreesWithRegexp(t *testing.T) {
	isolate(t)
	lines := []string{
		"no digits here", "1234 four", "12345 five", "x123456", "99999\r", "1234\n5678",
		"tel 555-1234", "ab 555-12345", "ABC_DEF", "abc_def", "X_YZW", "A9", "a9 b12 c345",
		"2024 \tx", "2024x", "\xff12345\xfe", "é12345", "12 34 56 78 90", "1234\r",
		"AB12", "ab1", "Ab123", "Ab\u212a12",
	}
	var body strings.Builder
	for i := range 400 { // several blocks, so runs also meet block ends
		body.WriteString(lines[i%len(lines)])
		body.WriteString("\n")
		if i%7 == 0 {
			body.WriteString(strings.Repeat("padding 1234 ", 40) + "\r\n")
		}
	}
	content := strings.Repeat(body.String(), 20)
	root := tree(t, map[string]string{"a.txt": content})
	for _, p := range []string{`[0-9]{5,}`, `[0-9]{3}-[0-9]{4}`, `(?i)ab[0-9]+`, `^[0-9]{4}`, `[0-9]{4}$`,
		`[0-9]{4}\s`, `[A-Z]{3,}_[A-Z]{3,}`, `[0-9]{4}\r`, `[a-c][0-9]{3}`, `[0-9][0-9][0-9][0-9][0-9][0-9]?`} {
		re := regexp.MustCompile(p)
		var want []hit
		for i, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
			l = strings.TrimSuffix(l, "\r")
			if re.MatchString(l) {
				h := hit{Rel: "a.txt", Line: i + 1, Valid: true, Text: l}
				if !strings.Contains(l, "\xff") {
					want = append(want, h)
					continue
				}
				h.Valid, h.Text = false, ""
				want = append(want, h)
			}
		}
		got := grep(t, search.GrepQuery{Root: root}, p)
		if len(got) != len(want) {
			t.Fatalf("%q: %d lines, regexp %d", p, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: line %d: %+v, regexp %+v", p, i, got[i], want[i])
			}
		}
		for _, l := range lines {
			if l := strings.TrimSuffix(l, "\r"); !strings.Contains(l, "\n") {
				m, err := search.CompileMatcher(p)
				mustNoErr(t, err)
				if got, want := m.MatchLine([]byte(l)), re.MatchString(l); got != want {
					t.Fatalf("%q on %q: MatchLine %v, regexp %v", p, l, got, want)
				}
			}
		}
	}
}
