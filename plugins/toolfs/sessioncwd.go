package toolfs

import (
	"os"
	"path/filepath"
	"regexp"
)

// parentSegment matches ".." as a whole path segment: at the start or after '/' or '\', and
// followed by '/', '\' or the end.
var parentSegment = regexp.MustCompile(`(?:^|[\\/])\.\.(?:[\\/]|$)`)

// sessionCwd returns the base directory for resolving requestedPath in a session whose header cwd
// is cwd ("" = none: the provider default applies and "" is returned). When neither cwd nor
// requestedPath has a ".." segment the cwd is returned as spelled, so a symlinked workspace keeps
// its display spelling. Otherwise the cwd is canonicalized physically (symlinks resolved component
// by component, so "link/.." is the parent of the link's target, as a shell would traverse it);
// if that fails the spelling is kept.
func sessionCwd(cwd, requestedPath string) string {
	if cwd == "" || (!parentSegment.MatchString(cwd) && !parentSegment.MatchString(requestedPath)) {
		return cwd
	}
	return canonicalPath(cwd)
}

// canonicalPath is realpath(3): an absolute path with every symlink resolved and "." and ".."
// applied to the physical path. A relative path is taken against the process working directory
// without lexical cleaning (cleaning first would collapse "link/.." textually). On failure the
// input is returned unchanged.
func canonicalPath(p string) string {
	abs := p
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return p
		}
		abs = wd + string(filepath.Separator) + p
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return p
	}
	return real
}
