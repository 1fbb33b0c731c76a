package search

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Glob is a compiled path glob (*, ?, [...], {a,b}, **). A pattern without "/" matches file names
// at any depth; one with "/" matches the slash-separated path relative to the search root (a
// leading "/" or "./" only anchors it there).
type Glob struct {
	pattern string
	base    bool // match the base name
}

// CompileGlob compiles a path glob. A malformed pattern fails with a *PatternError.
func CompileGlob(pattern string) (*Glob, error) {
	g := &Glob{pattern: pattern, base: !strings.Contains(pattern, "/")}
	if !g.base {
		g.pattern = strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
	}
	if !doublestar.ValidatePattern(g.pattern) {
		return nil, &PatternError{Pattern: pattern, Err: doublestar.ErrBadPattern}
	}
	return g, nil
}

// Match reports whether rel, a slash-separated path relative to the search root, matches.
func (g *Glob) Match(rel string) bool {
	if g.base {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	return doublestar.MatchUnvalidated(g.pattern, rel)
}
