package history

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// datasync flushes f's data (and the size that reads it back) with fdatasync.
func datasync(f *os.File) error {
	for {
		if err := unix.Fdatasync(int(f.Fd())); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
