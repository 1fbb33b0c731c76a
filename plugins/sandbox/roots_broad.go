package sandbox

import (
	"os"
	"path/filepath"
)

// BroadRoot says why dir is too broad to be a workspace root (docs/sandbox.md "Roots"): "the file
// system root" or "the home directory", compared in canonical form; "" for any other directory.
// A host refuses such a root unless the user asked for it (--allow-broad-root).
func BroadRoot(dir string) string {
	canon := CanonicalPath(dir)
	if canon == string(filepath.Separator) {
		return "the file system root"
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) && canon == CanonicalPath(h) {
		return "the home directory"
	}
	return ""
}
