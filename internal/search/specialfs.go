package search

import "golang.org/x/sys/unix"

// fdOnSpecialFS reports whether the open descriptor lies on a pseudo filesystem (specialStatfs).
func fdOnSpecialFS(fd int) (bool, error) {
	var st unix.Statfs_t
	for {
		err := unix.Fstatfs(fd, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		return specialStatfs(&st), nil
	}
}
