package filetool

import (
	"regexp"
	"testing"
)

// parentSegment is the rule hasParentSegment implements, as a regular expression.
var parentSegment = regexp.MustCompile(`(?:^|[\\/])\.\.(?:[\\/]|$)`)

func FuzzHasParentSegment(f *testing.F) {
	for _, s := range []string{"", "..", "...", "a/..", "../a", `a\..\b`, "a..b", "a/..b", "..a/", "/...", "x/../", ". .", "a/./b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasParentSegment(s), parentSegment.MatchString(s); got != want {
			t.Fatalf("hasParentSegment(%q) = %v, the regular expression says %v", s, got, want)
		}
	})
}
