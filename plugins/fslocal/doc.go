// Package fslocal is the fs-local plugin: it provides the fs seam (package fs)
// with the host filesystem provider (package hostfs) rooted at its configured
// cwd. The provider never confines (it is no sandbox.Confiner) and the cwd is a
// resolution default, not a boundary. Config is the provider's: cwd and
// diffBasisMaxBytes (docs/fs.md).
package fslocal
