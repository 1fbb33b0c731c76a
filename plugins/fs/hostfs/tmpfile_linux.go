package hostfs

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// openTmpfileAt creates an unnamed, linkable file (O_TMPFILE, without O_EXCL) in the directory
// name relative to dirfd; display names it in errors.
func openTmpfileAt(dirfd int, name, display string) (*os.File, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(newFilePerm))
		return err
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: display, Err: err}
	}
	return os.NewFile(uintptr(fd), display), nil
}

// procFDLinks reports whether this process can name an open file through /proc/self/fd (procfs
// mounted), which linking an unnamed file needs.
var procFDLinks = sync.OnceValue(func() bool {
	var st unix.Stat_t
	return unix.Stat("/proc/self/fd", &st) == nil
})

// renameNoReplace renames oldname to newname, failing EEXIST when newname exists.
func renameNoReplace(olddirfd int, oldname string, newdirfd int, newname string) error {
	return ignoringEINTR(func() error { return unix.Renameat2(olddirfd, oldname, newdirfd, newname, unix.RENAME_NOREPLACE) })
}
