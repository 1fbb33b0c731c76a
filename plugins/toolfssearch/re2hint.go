package toolfssearch

import (
	"regexp"
	"strings"
)

// The features of other regular expression engines that RE2 lacks, as a refused grep pattern may
// hold them, each with what to do instead (docs/search.md "Patterns RE2 lacks").
var re2Lacks = []struct {
	feature *regexp.Regexp
	hint    string
}{
	{regexp.MustCompile(`\(\?<?[=!]`), "RE2 has no lookaround ((?=...), (?!...), (?<=...), (?<!...)): match the neighbouring text as part of the pattern instead, e.g. foo(?=bar) as foobar, or search for the wider text."},
	{regexp.MustCompile(`\\[1-9]|\\k<`), "RE2 has no backreferences (\\1, \\k<name>): write the repeated text out, or search for its first occurrence alone."},
	{regexp.MustCompile(`\(\?>`), "RE2 has no atomic groups ((?>...)): use a plain group (?:...); RE2 never backtracks."},
	{regexp.MustCompile(`[*+?}]\+`), "RE2 has no possessive quantifiers (a*+, a++): drop the last +; RE2 never backtracks, so a* matches the same."},
}

// re2Hint is the line a refused grep pattern gains when it holds a feature RE2 lacks, or "".
func re2Hint(pattern string) string {
	var hints []string
	for _, l := range re2Lacks {
		if l.feature.MatchString(pattern) {
			hints = append(hints, l.hint)
		}
	}
	return strings.Join(hints, "\n")
}
