//go:build !linux

package hostfs

import (
	"os"

	"golang.org/x/sys/unix"
)

// openTmpfileAt fails: O_TMPFILE is Linux's.
func openTmpfileAt(_ int, name, _ string) (*os.File, error) {
	return nil, &os.PathError{Op: "open", Path: name, Err: unix.EOPNOTSUPP}
}

// procFDLinks is false: without O_TMPFILE nothing is linked through /proc.
func procFDLinks() bool { return false }

// renameNoReplace is not available: the creation links instead.
func renameNoReplace(int, string, int, string) error { return unix.ENOSYS }
