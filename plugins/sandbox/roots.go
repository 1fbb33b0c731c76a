package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// CanonicalPath returns the native realpath of p, made absolute: components are resolved one by
// one against the filesystem, so "link/.." lands where chdir would (the physical parent of the
// link's target), not at the lexical parent. When resolution fails for any reason (a missing path
// or prefix, a permission error) p is returned unchanged: a missing root then matches nothing
// until it exists (docs/sandbox.md "Modes and the policy").
func CanonicalPath(p string) string {
	full := p
	if !filepath.IsAbs(full) {
		wd, err := os.Getwd()
		if err != nil {
			return p
		}
		full = wd + string(filepath.Separator) + full
	}
	// A path reached through no link is its own canonical path: one call instead of a walk.
	if strings.Count(full, string(filepath.Separator)) > 2 && beneath.Linkless(full, nil) {
		return filepath.Clean(full)
	}
	resolved := string(filepath.Separator)
	for _, c := range strings.Split(full, string(filepath.Separator)) {
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return p
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if next, err = filepath.EvalSymlinks(next); err != nil {
				return p
			}
		}
		resolved = next
	}
	return resolved
}
