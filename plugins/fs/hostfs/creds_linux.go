package hostfs

import "golang.org/x/sys/unix"

// capabilities reports whether CAP_CHOWN and CAP_FSETID are in the
// process's effective set (root's, unless a container dropped them); when
// they cannot be read, whether euid is root.
func capabilities(euid int) (chown, fsetid bool) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return euid == 0, euid == 0
	}
	has := func(c uint) bool { return data[c/32].Effective&(1<<(c%32)) != 0 }
	return has(unix.CAP_CHOWN), has(unix.CAP_FSETID)
}
