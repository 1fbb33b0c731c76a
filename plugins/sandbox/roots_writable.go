package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WritableRoots returns the canonical directories a mutation under policy may write beneath
// (docs/sandbox.md "Writable roots"). Under workspace-write they are, in this order and
// de-duplicated after canonicalization: the policy's WorkspaceRoot, its Roots, then (unless
// NoTempRoots) "/tmp" and TempDir(), each passed through CanonicalPath and made absolute. Every other mode has none (read-only grants
// nothing; danger-full-access is never confined, so it needs no list).
//
// A temp root ("/tmp" or TempDir()) that is the file system root, the user's home ($HOME) or an
// ancestor of the home would grant what the workspace-write mode exists to withhold: it is left
// out and reported in ignored (once per canonical path), for the caller to warn about. The
// workspace root is the user's choice and is never judged.
//
// The list is computed at every call: the temp area and the home follow the environment of the
// moment. An empty WorkspaceRoot contributes nothing (a policy without a root grants only the
// temp areas); a root that cannot be made absolute is dropped.
func WritableRoots(policy CallPolicy) (roots []string, ignored []IgnoredRoot) {
	if policy.Mode != WorkspaceWrite {
		return nil, nil
	}
	home, homeKnown := "", false
	cands := []struct{ source, path string }{{"", policy.WorkspaceRoot}}
	for _, r := range policy.Roots {
		cands = append(cands, struct{ source, path string }{"", r})
	}
	if !policy.NoTempRoots {
		cands = append(cands, struct{ source, path string }{"/tmp", "/tmp"}, struct{ source, path string }{"$TMPDIR", TempDir()})
	}
	for _, c := range cands {
		if c.path == "" {
			continue
		}
		root, ok := absoluteCanonical(c.path)
		if !ok || contains(roots, root) {
			continue
		}
		if c.source != "" {
			if !homeKnown {
				home, homeKnown = userHome(), true
			}
			if reason := unsafeTempRoot(root, home); reason != "" {
				if !slices.ContainsFunc(ignored, func(r IgnoredRoot) bool { return r.Path == root }) {
					ignored = append(ignored, IgnoredRoot{Source: c.source, Path: root, Reason: reason})
				}
				continue
			}
		}
		roots = append(roots, root)
	}
	return roots, ignored
}

// ReadableRoots returns the canonical directories a read, listing or search under policy may
// open beneath when policy.ConfineReads is set (docs/sandbox.md "Roots"): the writable roots of
// workspace-write (WorkspaceRoot, Roots, the temp roots unless NoTempRoots), or under read-only
// WorkspaceRoot and Roots, then ReadOnlyRoots; de-duplicated after canonicalization. ok is false
// when reads are not confined (ConfineReads unset, or danger-full-access).
func ReadableRoots(policy CallPolicy) (roots []string, ignored []IgnoredRoot, ok bool) {
	if !policy.ConfineReads || policy.Mode == DangerFullAccess {
		return nil, nil, false
	}
	if policy.Mode == WorkspaceWrite {
		roots, ignored = WritableRoots(policy)
	} else {
		for _, r := range append([]string{policy.WorkspaceRoot}, policy.Roots...) {
			if root, ok := absoluteCanonical(r); r != "" && ok && !contains(roots, root) {
				roots = append(roots, root)
			}
		}
	}
	for _, r := range policy.ReadOnlyRoots {
		if root, ok := absoluteCanonical(r); r != "" && ok && !contains(roots, root) {
			roots = append(roots, root)
		}
	}
	return roots, ignored, true
}

// IgnoredRoot is a temp root WritableRoots left out.
type IgnoredRoot struct {
	// Source is where it came from: "/tmp" or "$TMPDIR".
	Source string
	// Path is its canonical path.
	Path string
	// Reason says why: "it is the file system root", "it is the home directory" or "it is an
	// ancestor of the home directory".
	Reason string
}

// absoluteCanonical returns CanonicalPath(p), made absolute and clean.
func absoluteCanonical(p string) (string, bool) {
	root := CanonicalPath(p)
	if !filepath.IsAbs(root) {
		abs, err := filepath.Abs(root)
		if err != nil {
			return "", false
		}
		root = abs
	}
	return filepath.Clean(root), true
}

// userHome returns the canonical home directory ($HOME), or "" when there is no absolute one.
func userHome() string {
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		return filepath.Clean(CanonicalPath(h))
	}
	return ""
}

// unsafeTempRoot returns why root may not be a temp root ("" when it may), given the canonical
// home ("" when unknown).
func unsafeTempRoot(root, home string) string {
	switch {
	case root == string(filepath.Separator):
		return "it is the file system root"
	case home == "":
		return ""
	case root == home:
		return "it is the home directory"
	case strings.HasPrefix(home, root+string(filepath.Separator)):
		return "it is an ancestor of the home directory"
	}
	return ""
}

// TempDir is the documented per-user temp directory: $TMPDIR, else "/tmp", with one trailing
// separator removed (except from "/" itself). It is read from the environment at every call.
// $TMP and $TEMP (which Node's os.tmpdir also reads) are not consulted: the README documents
// $TMPDIR only, and a stray TMP=/ must not widen the sandbox.
func TempDir() string {
	dir := os.Getenv("TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	if len(dir) > 1 && os.IsPathSeparator(dir[len(dir)-1]) {
		dir = dir[:len(dir)-1]
	}
	return dir
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
