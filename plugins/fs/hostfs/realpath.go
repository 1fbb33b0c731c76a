package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

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
