package fslocal

import "github.com/cordon-dev/cordon/plugins/fs"

// SetAfterBytesStat installs the ReadBytes post-stat hook (tests only).
func SetAfterBytesStat(p *Provider, fn func(fs.Target)) { p.afterBytesStat = fn }
