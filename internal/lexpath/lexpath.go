// Package lexpath decides by spelling alone whether an absolute, clean path is a directory or lies
// beneath it: "/ws/x" is beneath "/ws", "/ws2/x" is not, and nothing is resolved on disk (a caller
// that must follow links resolves first, or opens beneath a descriptor).
//
//	lexpath.Within("/ws", "/ws/a/b") // true
//	lexpath.Rel("/ws", "/ws/a/b")    // "a/b", true
package lexpath

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
