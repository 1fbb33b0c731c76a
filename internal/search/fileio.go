package search

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// errNotRegular refuses a path that is not a regular file when it is opened.
var errNotRegular = errors.New("not a regular file")

// openRegular opens path for reading without following a final symlink and without blocking (a
// FIFO swapped in is refused, never waited on), and checks that it is a regular file.
func openRegular(path string) (*os.File, error) {
	fd, err := openRegularFD(path)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openRegularFD is openRegular returning the raw descriptor.
func openRegularFD(path string) (int, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return -1, &os.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	return fd, nil
}

// readFull reads into p until it is full or the end of the file; it returns the bytes read and
// whether the end was reached.
func readFull(fd int, p []byte) (int, bool, error) {
	n := 0
	for n < len(p) {
		m, err := unix.Read(fd, p[n:])
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil {
			return n, false, err
		}
		if m == 0 {
			return n, true, nil
		}
		n += m
	}
	return n, false, nil
}

// readAll reads f into p (sized from a stat) and reports the bytes read.
func readAll(f *os.File, p []byte) (int, error) {
	n, err := io.ReadFull(f, p)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return n, err
}

// fdReaderAt reads a descriptor at offsets (pread).
type fdReaderAt int

func (fd fdReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := unix.Pread(int(fd), p[n:], off+int64(n))
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}
