package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
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

// maxSymlinks bounds symlink expansion in realpath (Linux MAXSYMLINKS).
const maxSymlinks = 40

// realpath returns the physical absolute path of the absolute path p, resolving
// every symlink component by component like the native realpath, and whether
// it is a directory as the walk found it (the lstat of the last component that
// is not a symlink; ".." only climbs from a directory). Failures are
// *os.PathError{Op: "realpath", Path: p} wrapping the errno (ENOENT, ENOTDIR,
// ELOOP, EACCES, ...), so errors.Is works with unix errnos.
func realpath(p string) (string, bool, error) {
	// A path reached through no link is its own physical path: one openat2 (with its fstat and
	// close, about two lstats' time) instead of an lstat per component, from three components.
	if strings.Count(p, string(filepath.Separator)) > 2 {
		var st unix.Stat_t
		if beneath.Linkless(p, &st) {
			return filepath.Clean(p), st.Mode&unix.S_IFMT == unix.S_IFDIR, nil
		}
	}
	dest := string(filepath.Separator)
	destIsDir := true
	rest := p
	links := 0
	for rest != "" {
		var comp string
		comp, rest, _ = strings.Cut(rest, string(filepath.Separator))
		switch comp {
		case "", ".":
			continue
		case "..":
			if !destIsDir {
				return "", false, realpathError(p, unix.ENOTDIR)
			}
			dest = filepath.Dir(dest)
			continue
		}
		if !destIsDir {
			return "", false, realpathError(p, unix.ENOTDIR)
		}
		next := filepath.Join(dest, comp)
		var st unix.Stat_t // lstat(2) into the stack: no FileInfo per component
		err := unix.Lstat(next, &st)
		for err == unix.EINTR {
			err = unix.Lstat(next, &st)
		}
		if err != nil {
			return "", false, realpathError(p, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFLNK {
			dest, destIsDir = next, st.Mode&unix.S_IFMT == unix.S_IFDIR
			continue
		}
		links++
		if links > maxSymlinks {
			return "", false, realpathError(p, unix.ELOOP)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false, realpathError(p, err)
		}
		if filepath.IsAbs(target) {
			dest = string(filepath.Separator)
		}
		if rest == "" {
			rest = target
		} else {
			rest = target + string(filepath.Separator) + rest
		}
	}
	return dest, destIsDir, nil
}

func realpathError(p string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &os.PathError{Op: "realpath", Path: p, Err: err}
}

// isAbsentErr reports ENOENT or ENOTDIR.
func isAbsentErr(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
}

// isPermissionErr reports EACCES or EPERM.
func isPermissionErr(err error) bool {
	return errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM)
}
