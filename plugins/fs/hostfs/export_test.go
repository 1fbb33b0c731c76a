package hostfs

import "github.com/cordon-dev/cordon/plugins/fs"

// SetAfterBytesStat installs the ReadBytes post-stat hook (tests only).
func SetAfterBytesStat(p *Provider, fn func(fs.Target)) { p.afterBytesStat = fn }

// SetInspectTemp installs a hook that runs in every mutation of p after the
// temp file is written and fsynced, before publication (tests only).
func SetInspectTemp(p *Provider, fn func(stagingDir, temp string)) {
	p.hooks = &atomicHooks{inspectTemp: fn}
}

// SetPublishStep installs a hook that runs after each step of a change set's publication
// (tests only).
func SetPublishStep(p *Provider, fn func(step int)) {
	p.hooks = &atomicHooks{published: fn}
}

// SetRename replaces the rename of every publication of p (tests only).
func SetRename(p *Provider, fn func(oldpath, newpath string) error) {
	p.hooks = &atomicHooks{rename: fn}
}
