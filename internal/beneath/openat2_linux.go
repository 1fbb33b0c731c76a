package beneath

import "golang.org/x/sys/unix"

// The resolutions of a confined open.
const (
	// NoLinks resolves through no symlink and no /proc magic link.
	NoLinks = unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS
	// Confined is NoLinks never above the starting directory.
	Confined = unix.RESOLVE_BENEATH | NoLinks
)

// Open opens path relative to dirfd with flags in one openat2 call resolved as resolve. ok is
// false when openat2 cannot be used (missing, filtered, or still failing EINTR or EAGAIN after
// the bounded tries): the caller walks instead. Otherwise err is the call's own (ELOOP or EXDEV
// for a link or an escape met).
func Open(dirfd int, path string, flags int, resolve uint64) (fd int, ok bool, err error) {
	if unusable.Load() {
		return -1, false, nil
	}
	how := &unix.OpenHow{Flags: uint64(flags), Resolve: resolve}
	for range retries {
		fd, err := unix.Openat2(dirfd, path, how)
		switch err {
		case nil:
			return fd, true, nil
		case unix.EINTR, unix.EAGAIN:
			continue
		case unix.ENOSYS, unix.EPERM:
			unusable.Store(true)
			return -1, false, nil
		}
		return -1, true, err
	}
	return -1, false, nil
}

// Linkless reports whether the absolute path p names an existing file reached through no symlink
// and no magic link, in one openat2 call (O_PATH): then p, cleaned, is its canonical path, and st
// (when not nil) is the file's fstat. false says only that the caller must walk p.
func Linkless(p string, st *unix.Stat_t) bool {
	fd, ok, err := Open(unix.AT_FDCWD, p, unix.O_PATH|unix.O_CLOEXEC, NoLinks)
	if !ok || err != nil {
		return false
	}
	defer unix.Close(fd)
	if st == nil {
		return true
	}
	for {
		switch err := unix.Fstat(fd, st); err {
		case nil:
			return true
		case unix.EINTR:
			continue
		}
		return false
	}
}
