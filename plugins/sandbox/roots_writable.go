package sandbox

import (
	"os"
	"path/filepath"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// WritableRoots returns the canonical directories a mutation under policy may write beneath
// (spec sandbox 1.3). Under workspace-write they are, in this order and de-duplicated after
// canonicalization: the policy's WorkspaceRoot, "/tmp" and TempDir(), each passed through
// CanonicalPath and made absolute. Every other mode has none (read-only grants nothing;
// danger-full-access is never confined, so it needs no list).
//
// The list is computed at every call: the temp area follows the environment of the moment.
// An empty WorkspaceRoot contributes nothing (a policy without a root grants only the temp
// areas); a root that cannot be made absolute is dropped.
func WritableRoots(policy fs.SandboxPolicy) []string {
	if policy.Mode != fs.SandboxWorkspaceWrite {
		return nil
	}
	var roots []string
	for _, candidate := range []string{policy.WorkspaceRoot, "/tmp", TempDir()} {
		if candidate == "" {
			continue
		}
		root := CanonicalPath(candidate)
		if !filepath.IsAbs(root) {
			abs, err := filepath.Abs(root)
			if err != nil {
				continue
			}
			root = abs
		}
		root = filepath.Clean(root)
		if !contains(roots, root) {
			roots = append(roots, root)
		}
	}
	return roots
}

// TempDir is the platform per-user temp directory as Node's os.tmpdir() reports it on Linux
// and macOS: $TMPDIR, else $TMP, else $TEMP, else "/tmp", with one trailing separator removed
// (except from "/" itself). It is read from the environment at every call. Go's os.TempDir
// honours only $TMPDIR; the fs fence and the process sandbox must agree on one list, so the
// Node order is kept (spec sandbox 6.1 item 10).
func TempDir() string {
	dir := ""
	for _, name := range []string{"TMPDIR", "TMP", "TEMP"} {
		if dir = os.Getenv(name); dir != "" {
			break
		}
	}
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
