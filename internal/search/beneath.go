package search

import (
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// errEscape refuses an open that would leave Options.Beneath: a symlink or ".." met beneath the
// root (swapped in after the walk listed the entry), or a path not beneath it.
var errEscape = errors.New("path leaves the confining directory")

// openNoLinks opens path relative to dirfd with flags in one openat2 call through no symlink and no
// /proc magic link, and when confined, never above dirfd; a link or an escape met is errEscape.
// done is false when openat2 cannot be used (internal/beneath) and the caller walks instead.
func openNoLinks(dirfd int, path string, flags int, confined bool) (fd int, done bool, err error) {
	resolve := uint64(beneath.NoLinks)
	if confined {
		resolve = beneath.Confined
	}
	fd, done, err = beneath.Open(dirfd, path, flags, resolve)
	if err == unix.ELOOP || err == unix.EXDEV {
		return -1, true, errEscape
	}
	return fd, done, err
}

// OpenBeneath opens the absolute path with flags (which apply to its last component) beneath the
// directory root (absolute, clean, no symlinks) through no symlink and no "..", as a confined
// search opens every file (Options.Beneath); root "" opens path as given (as openLong does). It
// returns a descriptor the caller closes.
func OpenBeneath(root, path string, flags int) (int, error) {
	if root == "" {
		return openLong(path, flags)
	}
	rel := "."
	if path != root {
		r, ok := beneath.Rel(root, path)
		if !ok {
			return -1, errEscape
		}
		rel = r
	}
	rootfd, err := openRootNoFollow(root)
	if err != nil {
		return -1, err
	}
	defer unix.Close(rootfd)
	return openBeneath(rootfd, rel, flags)
}

// openBeneath opens rel below rootfd with openat2 (never above rootfd, through no symlink, through
// no /proc magic link), else (openat2 unusable) by walkNoFollow, which follows no symlink at all.
func openBeneath(rootfd int, rel string, flags int) (int, error) {
	if fd, done, err := openNoLinks(rootfd, rel, flags|unix.O_CLOEXEC, true); done {
		return fd, err
	}
	return walkNoFollow(rootfd, rel, flags)
}

// statLinkBeneath stats what the symbolic link abs (listed in dirfd as name) names when its
// target lies beneath root. It decides a listing only: the link's name is inside root, and a
// later read of it is opened beneath root on its own. A link whose target leaves root, or that
// dangles, is an error.
func statLinkBeneath(root string, dirfd int, name, abs string, st *unix.Stat_t) error {
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	if !beneath.Within(root, target) {
		return errEscape
	}
	return fstatat(dirfd, name, st, 0)
}

// openRootNoFollow opens the directory root (absolute) without following a symlink in any
// component: one openat2 call, else from "/" one component at a time.
func openRootNoFollow(root string) (int, error) {
	if fd, done, err := openNoLinks(unix.AT_FDCWD, root, dirFlags, false); done {
		return fd, err
	}
	slash, err := openAt(unix.AT_FDCWD, "/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return -1, err
	}
	defer unix.Close(slash)
	return walkNoFollow(slash, strings.TrimPrefix(root, "/"), dirFlags)
}

// walkNoFollow opens rel below dirfd, each component with O_NOFOLLOW (directories with
// O_DIRECTORY, the last one with flags); a symlink or ".." is errEscape.
func walkNoFollow(dirfd int, rel string, flags int) (int, error) {
	parts := strings.Split(rel, "/")
	cur := dirfd
	for i, c := range parts {
		if c == ".." {
			if cur != dirfd {
				unix.Close(cur)
			}
			return -1, errEscape
		}
		if c == "" {
			c = "."
		}
		f := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK
		if i == len(parts)-1 {
			f = flags | unix.O_NOFOLLOW | unix.O_CLOEXEC
		}
		fd, err := openAt(cur, c, f)
		if err == unix.ENOTDIR { // O_DIRECTORY may fail on a symlink before O_NOFOLLOW does
			var st unix.Stat_t
			if fstatat(cur, c, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = unix.ELOOP
			}
		}
		if cur != dirfd {
			unix.Close(cur)
		}
		if err == unix.ELOOP {
			return -1, errEscape
		}
		if err != nil {
			return -1, err
		}
		cur = fd
	}
	return cur, nil
}
