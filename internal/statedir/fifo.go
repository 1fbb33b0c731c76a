package statedir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// ListenFIFO opens the FIFO at path for reading, making it (mode 0600) when it is missing, and
// refuses anything but a FIFO owned by this user that no other user can write. The file is opened
// read-write, so it never reads end-of-file while no writer has it open, and non-blocking, so a
// Read parks its goroutine in the runtime's poller (costing nothing while it waits) and a Close
// ends it.
func ListenFIFO(path string) (*os.File, error) {
	if err := unix.Mkfifo(path, 0o600); err != nil && !errors.Is(err, unix.EEXIST) {
		return nil, &os.PathError{Op: "mkfifo", Path: path, Err: err}
	}
	fd, err := openOwn(path, unix.O_RDWR, 0, unix.S_IFIFO)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// RingFIFO writes one byte to the FIFO at path without blocking, and reports whether a reader had
// it open (ListenFIFO). A full FIFO counts as read: its reader has bytes still to read.
func RingFIFO(path string) bool {
	fd, err := openOwn(path, unix.O_WRONLY, 0, unix.S_IFIFO)
	if err != nil {
		return false // ENXIO: nobody listens
	}
	defer unix.Close(fd)
	_, err = unix.Write(fd, []byte{1})
	return err == nil || errors.Is(err, unix.EAGAIN)
}
