package toolfssearch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A grep pattern RE2 refuses for a feature it lacks says so, and what to do instead, on the lines
// after the parser's message (docs/search.md "Patterns RE2 lacks").
func TestGrepNamesWhatRE2Lacks(t *testing.T) {
	e := newEnv(t, nil, nil)
	for pattern, want := range map[string]string{
		`(?<=func )New`: "Error: grep pattern rejected: error parsing regexp: invalid named capture: `(?<=func )New`\n" +
			"RE2 has no lookaround ((?=...), (?!...), (?<=...), (?<!...)): match the neighbouring text as part of the pattern instead, e.g. foo(?=bar) as foobar, or search for the wider text.",
		`(a)\1`: "Error: grep pattern rejected: error parsing regexp: invalid escape sequence: `\\1`\n" +
			"RE2 has no backreferences (\\1, \\k<name>): write the repeated text out, or search for its first occurrence alone.",
		`a*+`: "Error: grep pattern rejected: error parsing regexp: invalid nested repetition operator: `*+`\n" +
			"RE2 has no possessive quantifiers (a*+, a++): drop the last +; RE2 never backtracks, so a* matches the same.",
		`(a`: "Error: grep pattern rejected: error parsing regexp: missing closing ): `(a`",
	} {
		r := e.call("grep", map[string]any{"pattern": pattern})
		assert.True(t, r.IsError, pattern)
		assert.Equal(t, want, r.Text(), pattern)
		assert.Equal(t, "SEARCH_INVALID_PATTERN", r.Code(), pattern)
	}
}
