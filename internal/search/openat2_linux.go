package search

import "golang.org/x/sys/unix"

// openat2 opens path relative to dirfd with flags through no symlink and no /proc magic link, and
// when beneath, never above dirfd; a symlink or an escape met is errEscape. done is false when
// openat2 is unusable (missing or filtered: openat2Unusable is set) or kept answering EINTR or
// EAGAIN (a bounded number of tries: no spin), and the caller walks instead.
func openat2(dirfd int, path string, flags int, beneath bool) (fd int, done bool, err error) {
	if openat2Unusable.Load() {
		return -1, false, nil
	}
	how := &unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	if beneath {
		how.Resolve |= unix.RESOLVE_BENEATH
	}
	for range 8 {
		fd, err := unix.Openat2(dirfd, path, how)
		switch {
		case err == nil:
			return fd, true, nil
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ENOSYS || err == unix.EPERM:
			openat2Unusable.Store(true)
			return -1, false, nil
		case err == unix.ELOOP || err == unix.EXDEV:
			return -1, true, errEscape
		}
		return -1, true, err
	}
	return -1, false, nil
}
