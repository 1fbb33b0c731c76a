package hostfs

import "github.com/cordon-dev/cordon/plugins/fs"

// SetAfterPreflight installs the hook that runs after the stat preflight of ReadBytes and
// StatText (tests only).
func SetAfterPreflight(p *Provider, fn func(fs.Target)) { p.afterPreflight = fn }

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

// UseStagingDirectory makes every write of p stage in a directory, as where the filesystem has no
// O_TMPFILE (tests only).
func UseStagingDirectory(p *Provider) { p.hooks = &atomicHooks{} }

// SetLinked installs a hook that runs in every replacement of p through an unnamed temp file once
// it is linked beside its target, before the rename (tests only).
func SetLinked(p *Provider, fn func(temp string)) {
	p.hooks = &atomicHooks{tmpfile: true, linked: fn}
}
