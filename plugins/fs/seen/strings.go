package seen

import "strings"

func indexFrom(s, sub string, at int) int {
	i := strings.Index(s[at:], sub)
	if i < 0 {
		return -1
	}
	return at + i
}

func countNL(s string) int { return strings.Count(s, "\n") }
