package charset

import "golang.org/x/sys/unix"

// keyOf is what identifies a version of a file: its device, inode, mode, size and times.
func keyOf(st *unix.Stat_t) ecKey {
	return ecKey{dev: st.Dev, ino: st.Ino, mode: st.Mode, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}
