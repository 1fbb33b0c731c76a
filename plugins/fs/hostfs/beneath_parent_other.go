//go:build !linux

package hostfs

import "golang.org/x/sys/unix"

// openParent opens the current parent of the directory dirfd (read-only: an
// unreadable ancestor ends stillBeneath's walk undecided).
func openParent(dirfd int) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		return err
	})
	return fd, err
}
