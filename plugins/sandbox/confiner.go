package sandbox

import "github.com/cordon-dev/cordon/plugins/fs"

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
