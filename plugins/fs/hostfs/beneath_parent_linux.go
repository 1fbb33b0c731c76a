package hostfs

import "golang.org/x/sys/unix"

// openParent opens the current parent of the directory dirfd as a path-only
// descriptor (O_PATH needs no permission on the directory, fstat works on it).
func openParent(dirfd int) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}
