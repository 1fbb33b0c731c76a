package search

import "golang.org/x/sys/unix"

// Magic numbers x/sys/unix does not name (linux/magic.h).
const (
	configfsMagic = 0x62656570
	fusectlMagic  = 0x65735543
)

// isSpecialFS reports whether a statfs f_type names a kernel pseudo filesystem whose "regular"
// files are views of kernel state rather than text on disk: reading them can block, consume what
// they show (/proc/kmsg, trace_pipe) or trigger work. Grep never reads such files; they count as
// skipped.
func isSpecialFS(fsType int64) bool {
	switch uint32(fsType) {
	case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.TRACEFS_MAGIC, unix.DEBUGFS_MAGIC,
		unix.SECURITYFS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC, unix.BPF_FS_MAGIC,
		unix.PSTOREFS_MAGIC, unix.EFIVARFS_MAGIC, configfsMagic, fusectlMagic,
		unix.SELINUX_MAGIC, unix.SMACK_MAGIC, unix.BINFMTFS_MAGIC, unix.DEVPTS_SUPER_MAGIC,
		unix.NSFS_MAGIC, unix.ANON_INODE_FS_MAGIC:
		return true
	}
	return false
}

// specialStatfs reports whether st, the statfs of a descriptor, is of a kernel pseudo filesystem.
func specialStatfs(st *unix.Statfs_t) bool { return isSpecialFS(int64(st.Type)) }
