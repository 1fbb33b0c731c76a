//go:build !linux

package search

import "golang.org/x/sys/unix"

// fdOnSpecialFS reports whether the open descriptor lies on a pseudo filesystem whose files are
// devices or views of kernel state (devfs, fdesc), which grep never reads.
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
		name := unix.ByteSliceToString(st.Fstypename[:])
		return name == "devfs" || name == "fdesc", nil
	}
}
