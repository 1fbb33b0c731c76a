package filetool

import (
	"strings"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// hasParentSegment reports whether s has ".." as a whole path segment: at the start or after '/'
// or '\', and followed by '/', '\' or the end (what the regular expression
// `(?:^|[\\/])\.\.(?:[\\/]|$)` matches, FuzzHasParentSegment, without its cost on every call).
func hasParentSegment(s string) bool {
	for i := 0; ; i++ {
		j := strings.Index(s[i:], "..")
		if j < 0 {
			return false
		}
		i += j
		if (i == 0 || s[i-1] == '/' || s[i-1] == '\\') && (i+2 == len(s) || s[i+2] == '/' || s[i+2] == '\\') {
			return true
		}
	}
}

// SessionCwd returns the base directory for resolving requestedPath in a session whose header cwd
// is cwd ("" = none: the provider default applies and "" is returned). When neither cwd nor
// requestedPath has a ".." segment the cwd is returned as spelled, so a symlinked workspace keeps
// its display spelling. Otherwise the cwd is canonicalized physically (symlinks resolved component
// by component, so "link/.." is the parent of the link's target, as a shell would traverse it);
// if that fails the spelling is kept.
//
//	target, err := env.FS.Resolve(ctx, p, fs.ResolveOptions{Cwd: filetool.SessionCwd(exec.Header().Cwd, p)})
func SessionCwd(cwd, requestedPath string) string {
	if cwd == "" || (!hasParentSegment(cwd) && !hasParentSegment(requestedPath)) {
		return cwd
	}
	return sandbox.CanonicalPath(cwd)
}
