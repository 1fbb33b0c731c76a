package charset

import "golang.org/x/sys/unix"

// keyOf is what identifies a version of a file: its device, inode, mode, size and times.
func keyOf(st *unix.Stat_t) ecKey {
	return ecKey{dev: uint64(st.Dev), ino: st.Ino, mode: uint32(st.Mode), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}
