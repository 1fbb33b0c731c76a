package fs

import "strings"

// NamesDirectory reports whether path is spelled so that it can only name a
// directory: it ends in "/" or its last segment is "." or "..". Resolution
// removes that spelling from the DisplayPath (it is lexically normalized), so
// it is judged on the path as the caller gave it.
func NamesDirectory(path string) bool {
	if strings.HasSuffix(path, "/") {
		return true
	}
	last := path[strings.LastIndexByte(path, '/')+1:]
	return last == "." || last == ".."
}
