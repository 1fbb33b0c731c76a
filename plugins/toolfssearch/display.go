package toolfssearch

import "strings"

// displayPath shows p relative to cwd (both provider display paths) when it lies under it, else
// as it is; the cwd itself is ".".
func displayPath(cwd, p string) string {
	switch {
	case cwd == "":
		return p
	case p == cwd:
		return "."
	case cwd == "/":
		return strings.TrimPrefix(p, "/")
	}
	if rest, ok := strings.CutPrefix(p, cwd); ok && strings.HasPrefix(rest, "/") {
		return rest[1:]
	}
	return p
}
