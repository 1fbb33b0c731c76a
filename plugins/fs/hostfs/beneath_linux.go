package hostfs

import (
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// beneathResolve is how a confined lookup resolves: never above the starting
// directory, through no symlink at all (the key is canonical, so one met was
// swapped in) and through no /proc magic link.
const beneathResolve = beneath.Confined

// openRootFast opens the absolute directory root with openat2, following no
// symlink. ok is false when openat2 cannot be used.
func openRootFast(root string) (fd int, ok bool, err error) {
	return openat2Dir(unix.AT_FDCWD, root, beneath.NoLinks)
}

// openBeneathFast opens the directory rel below rootfd in one openat2 call
// (beneathResolve). ok is false when openat2 cannot be used.
func openBeneathFast(rootfd int, rel string) (fd int, ok bool, err error) {
	return openat2Dir(rootfd, rel, beneathResolve)
}

func openat2Dir(dirfd int, path string, resolve uint64) (int, bool, error) {
	return beneath.Open(dirfd, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, resolve)
}
