package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Resolve implements fs.FileSystem. The DisplayPath is the lexical absolute
// join of the base (opts.Cwd, else the configured cwd) and path; the Key is its
// realpath, or, when it does not exist, the realpath of the nearest existing
// ancestor plus the missing suffix. There is no "~" expansion.
func (p *Provider) Resolve(ctx context.Context, path string, opts fs.ResolveOptions) (fs.Target, error) {
	if err := checkAbort(ctx, fs.VerbResolve); err != nil {
		return fs.Target{}, err
	}
	base := p.base(opts.Cwd)
	t, err := resolveLocal(base, path)
	if err != nil {
		return fs.Target{}, fs.FromOS(fs.VerbResolve, displayPathOf(base, path), err)
	}
	if err := checkAbort(ctx, fs.VerbResolve); err != nil {
		return fs.Target{}, err
	}
	return t, nil
}

// base returns the absolute base directory for a relative path.
func (p *Provider) base(cwd string) string {
	if cwd == "" {
		return p.cwd
	}
	if !filepath.IsAbs(cwd) {
		return filepath.Join(p.cwd, cwd)
	}
	return cwd
}

// hasNUL reports a NUL byte in the base or the path. No system call accepts
// one, and it must be refused before the lexical join: a later ".." could
// swallow the component that holds it, and the ancestor walk could build a
// key around it.
func hasNUL(base, path string) bool {
	return strings.IndexByte(path, 0) >= 0 || strings.IndexByte(base, 0) >= 0
}

// nulPath is the refusal of a path (or base) holding a NUL: the path as sent,
// or, when only the base holds one, the base and the path unjoined (a lexical
// join could drop the NUL's component).
func nulPath(base, path string) error {
	shown := path
	if strings.IndexByte(path, 0) < 0 {
		shown = base + string(filepath.Separator) + path
	}
	return fs.PathHasNUL(shown, &os.PathError{Op: "open", Path: shown, Err: unix.EINVAL})
}

// displayPathOf joins base and path lexically into a clean absolute path.
func displayPathOf(base, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(base, path)
}

// resolveLocal resolves path against the absolute base (see Resolve). OS
// failures the spec does not code are returned raw (Resolve codes them,
// ListDir names the child in its own message).
func resolveLocal(base, path string) (fs.Target, error) {
	if texts.IsBlank(path) { // JavaScript trim, as the tools check it
		return fs.Target{}, fs.BlankPath()
	}
	if hasNUL(base, path) {
		return fs.Target{}, nulPath(base, path)
	}
	display := displayPathOf(base, path)
	real, isDir, err := realpath(display)
	if err == nil {
		if fs.NamesDirectory(path) && !isDir {
			return fs.Target{}, fs.ResolveNotDirectory(display, realpathError(display, unix.ENOTDIR))
		}
		return fs.Target{Key: fs.TargetKey(real), DisplayPath: display}, nil
	}
	if errors.Is(err, unix.ENOTDIR) {
		return fs.Target{}, fs.ParentNotDirectory(display, err)
	}
	if !errors.Is(err, unix.ENOENT) {
		return fs.Target{}, err
	}
	missing := []string{filepath.Base(display)}
	ancestor := filepath.Dir(display)
	for {
		realAncestor, _, err := realpath(ancestor)
		if err == nil {
			key := filepath.Join(append([]string{realAncestor}, missing...)...)
			return fs.Target{Key: fs.TargetKey(key), DisplayPath: display}, nil
		}
		if !errors.Is(err, unix.ENOENT) {
			return fs.Target{}, err
		}
		parent := filepath.Dir(ancestor)
		if parent == ancestor {
			return fs.Target{Key: fs.TargetKey(display), DisplayPath: display}, nil
		}
		missing = append([]string{filepath.Base(ancestor)}, missing...)
		ancestor = parent
	}
}

// ProcessPath implements fs.FileSystem: the key, a canonical absolute path.
func (p *Provider) ProcessPath(t fs.Target) string { return string(t.Key) }

// FileURL implements fs.FileSystem: the file: URI of the key. Bytes outside
// printable ASCII and the characters space " # % < > ? \ ^ ` { } are
// percent-encoded (the WHATWG path set plus '%' and '\').
func (p *Provider) FileURL(t fs.Target) string {
	const hex = "0123456789ABCDEF"
	path := string(t.Key)
	var b strings.Builder
	b.Grow(len("file://") + len(path))
	b.WriteString("file://")
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c <= ' ' || c >= 0x7F || strings.IndexByte("\"#%<>?\\^`{}", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Contains implements fs.FileSystem: child is parent itself or lies beneath it
// (compared by key).
func (p *Provider) Contains(parent, child fs.Target) bool {
	rel, err := filepath.Rel(string(parent.Key), string(child.Key))
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}
