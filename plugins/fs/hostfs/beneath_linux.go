package hostfs

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// openat2Unusable is set once openat2 turns out to be missing (ENOSYS, kernels
// before 5.6) or filtered (EPERM, seccomp); the O_NOFOLLOW walk is used from
// then on. Tests set it to exercise the walk.
var openat2Unusable atomic.Bool

// openat2Retries bounds the retries of an openat2 that failed EAGAIN (a
// concurrent rename anywhere on the system); the walk takes over after them.
const openat2Retries = 8

// beneathResolve is how a confined lookup resolves: never above the starting
// directory, through no symlink at all (the key is canonical, so one met was
// swapped in) and through no /proc magic link.
const beneathResolve = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openRootFast opens the absolute directory root with openat2, following no
// symlink. ok is false when openat2 cannot be used.
func openRootFast(root string) (fd int, ok bool, err error) {
	return openat2Dir(unix.AT_FDCWD, root, unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS)
}

// openBeneathFast opens the directory rel below rootfd in one openat2 call
// (beneathResolve). ok is false when openat2 cannot be used.
func openBeneathFast(rootfd int, rel string) (fd int, ok bool, err error) {
	return openat2Dir(rootfd, rel, beneathResolve)
}

func openat2Dir(dirfd int, path string, resolve uint64) (int, bool, error) {
	return openat2File(dirfd, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, resolve)
}

// openat2File opens path below dirfd with flags in one openat2 call resolved
// as resolve. ok is false when openat2 cannot be used.
func openat2File(dirfd int, path string, flags int, resolve uint64) (int, bool, error) {
	if openat2Unusable.Load() {
		return -1, false, nil
	}
	how := &unix.OpenHow{Flags: uint64(flags), Resolve: resolve}
	for i := 0; ; i++ {
		fd, err := unix.Openat2(dirfd, path, how)
		switch {
		case err == nil:
			return fd, true, nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN):
			if i < openat2Retries {
				continue
			}
			return -1, false, nil
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
			openat2Unusable.Store(true)
			return -1, false, nil
		}
		return -1, true, err
	}
}
