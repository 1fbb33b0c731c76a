package beneath

import "strings"

// Within reports whether path is root or lies beneath it.
func Within(root, path string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/")
}

// Rel returns path relative to root when path lies strictly beneath root ("a/b" for "/ws/a/b"
// under "/ws"); false for root itself and for any path not beneath it.
func Rel(root, path string) (string, bool) {
	rel, ok := strings.CutPrefix(path, strings.TrimSuffix(root, "/")+"/")
	if !ok || rel == "" {
		return "", false
	}
	return rel, true
}
