package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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

// IsPathUnder reports whether the canonical target key path is the canonical writable root or lies
// beneath it (docs/sandbox.md "Modes and the policy"), comparing case-sensitively as on Linux and
// macOS. See UnderRoot.
func IsPathUnder(path, root string) (bool, error) {
	_, ok, err := UnderRoot(path, root, true)
	return ok, err
}

// UnderRoot decides containment of path under root and, when contained, returns the anchor: the
// prefix of path (path itself or one of its ancestors, as path spells it) that is the root.
// A confined mutation opens that anchor and writes beneath it.
//
//  1. Lexical fast path: path equals root, or starts with root plus a separator (the root "/"
//     already ends with one), so "/ws2/x" is not under "/ws". With caseSensitive false the
//     comparison folds case (Linux and macOS compare exactly).
//  2. Identity fallback, only when the lexical test fails: stat the root (following links); a
//     missing root (ENOENT, ENOTDIR) contains nothing. Then stat path and each ancestor up to
//     "/": missing ones are skipped, any other stat error is returned, and the first one with
//     the root's device and inode is the anchor. This recognizes alias spellings of the root
//     without a textual guess: it is true only when a real ancestor is the root directory.
//
// Both arguments must be absolute; path must be clean (filepath.Clean leaves it unchanged, as
// every target key is). Anything else is not contained: a ".." component could otherwise pass
// the lexical test while naming a place outside.
func UnderRoot(path, root string, caseSensitive bool) (anchor string, ok bool, err error) {
	if !filepath.IsAbs(path) || !filepath.IsAbs(root) || filepath.Clean(path) != path {
		return "", false, nil
	}
	root = filepath.Clean(root)
	if a, ok := lexicalAnchor(path, root, caseSensitive); ok {
		return a, true, nil
	}
	rootInfo, err := statPresent(root)
	if err != nil || rootInfo == nil {
		return "", false, err
	}
	for a := path; ; {
		info, err := statPresent(a)
		if err != nil {
			return "", false, err
		}
		if info != nil && os.SameFile(info, rootInfo) {
			return a, true, nil
		}
		parent := filepath.Dir(a)
		if parent == a {
			return "", false, nil
		}
		a = parent
	}
}

// lexicalAnchor is step 1 of UnderRoot: path and root are absolute and clean.
func lexicalAnchor(path, root string, caseSensitive bool) (string, bool) {
	fold := func(s string) string { return s }
	if !caseSensitive {
		fold = strings.ToLower
	}
	p, r := fold(path), fold(root)
	prefix := r
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if p != r && !strings.HasPrefix(p, prefix) {
		return "", false
	}
	if caseSensitive {
		return path[:len(root)], true
	}
	// Folding may change byte lengths: find the ancestor that folds to the root.
	for a := path; ; {
		if fold(a) == r {
			return a, true
		}
		parent := filepath.Dir(a)
		if parent == a {
			return "", false
		}
		a = parent
	}
}

// statPresent stats p following symlinks; a missing p (ENOENT, ENOTDIR) is (nil, nil).
func statPresent(p string) (os.FileInfo, error) {
	fi, err := os.Stat(p)
	if err == nil {
		return fi, nil
	}
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	return nil, err
}
