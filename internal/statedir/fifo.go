package statedir

import (
	"errors"
	"fmt"
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
	fd, err := openFIFO(path, unix.O_RDWR)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// RingFIFO writes one byte to the FIFO at path without blocking, and reports whether a reader had
// it open (ListenFIFO). A full FIFO counts as read: its reader has bytes still to read.
func RingFIFO(path string) bool {
	fd, err := openFIFO(path, unix.O_WRONLY)
	if err != nil {
		return false // ENXIO: nobody listens
	}
	defer unix.Close(fd)
	_, err = unix.Write(fd, []byte{1})
	return err == nil || errors.Is(err, unix.EAGAIN)
}

func openFIFO(path string, mode int) (int, error) {
	fd, err := unix.Open(path, mode|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return -1, fmt.Errorf("%s: %w: a symbolic link", path, ErrRefused)
		}
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	if err := checkOwn(path, &st, unix.S_IFIFO, 0o022); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
