//go:build unix

package fstest

import (
	"errors"
	"os"
	"syscall"
)

// mkfifo makes a FIFO at rel; false when the file system cannot hold one.
func mkfifo(c *checker, rel string) bool {
	if err := syscall.Mkfifo(c.path(rel), 0o644); err != nil {
		if errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.EPERM) {
			return false
		}
		c.fatalf("fixture: mkfifo %s: %v", rel, err)
	}
	return true
}

// unblockFIFO lets a reader blocked opening or reading the FIFO at path return: it opens the
// write end without blocking and closes it (a reader then sees the end of the data).
func unblockFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		_ = f.Close()
	}
}
