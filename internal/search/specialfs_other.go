//go:build !linux

package search

import "golang.org/x/sys/unix"

// specialStatfs reports whether st, the statfs of a descriptor, is of a pseudo filesystem whose
// files are devices or views of kernel state (devfs, fdesc), which grep never reads.
func specialStatfs(st *unix.Statfs_t) bool {
	name := unix.ByteSliceToString(st.Fstypename[:])
	return name == "devfs" || name == "fdesc"
}
