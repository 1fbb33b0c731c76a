package sandbox

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Confiner is implemented by an fs.FileSystem that confines its mutations (fs-sandbox): every
// WriteText, EditText, ApplyChanges and Restore runs under the CallPolicy of its context
// (PolicyFrom), else under its SandboxMode. A filesystem that does not implement it never confines.
type Confiner interface {
	// SandboxMode is the mode enforced on a call whose context carries no policy: the policy
	// service's default, read when the provider was built.
	SandboxMode() Mode
}

// ConfiningMode reports whether fsys confines, and in which default mode: a Confiner whose
// SandboxMode is "" does not.
func ConfiningMode(fsys fs.FileSystem) (Mode, bool) {
	c, ok := fsys.(Confiner)
	if !ok {
		return "", false
	}
	m := c.SandboxMode()
	return m, m != ""
}

// PathClassifier is implemented by a confining filesystem that can say, without acting, where a
// path lies under a policy's writable roots, for the approval prompt of a call that asks for a
// wider mode (docs/sandbox.md "The approval prompt").
type PathClassifier interface {
	// ClassifyPath returns where t lies under policy's writable roots, read as under
	// workspace-write whatever policy's mode.
	ClassifyPath(ctx context.Context, t fs.Target, policy CallPolicy) PathClass
}

// PathClass is where a path lies under a policy's writable roots.
type PathClass int

// The classes of PathClassifier.
const (
	PathInside     PathClass = iota // beneath a writable root, no protected path covering it
	PathProtected                   // a protected path (a repository, a path its git config names) covers it
	PathOutside                     // beneath no writable root
	PathUnverified                  // it could not be examined
)
