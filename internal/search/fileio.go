package search

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// errNotRegular refuses a path that is not a regular file when it is opened.
var errNotRegular = errors.New("not a regular file")

// errWouldBlock ends the read of a file whose read(2) returned EAGAIN: not a file on disk but a
// kernel stream that looks like one (/proc/kmsg, tracefs's trace_pipe). It is skipped, never
// waited on or polled.
var errWouldBlock = errors.New("read would block")

// errSpecialFS refuses a file on a kernel pseudo filesystem (see isSpecialFS).
var errSpecialFS = errors.New("a file of a kernel pseudo filesystem")

// readHook, when set, stands in for read(2) and pread(2) (off < 0: read) on the files searched;
// fault injection sets it.
var readHook atomic.Pointer[func(fd int, p []byte, off int64) (int, error)]

func sysRead(fd int, p []byte) (int, error) {
	if h := readHook.Load(); h != nil {
		return (*h)(fd, p, -1)
	}
	return unix.Read(fd, p)
}

func sysPread(fd int, p []byte, off int64) (int, error) {
	if h := readHook.Load(); h != nil {
		return (*h)(fd, p, off)
	}
	return unix.Pread(fd, p, off)
}

// pathMax bounds the paths handed to the kernel whole; a longer one is opened a piece at a time
// (openLong).
const pathMax = unix.PathMax - 1

// openFlags open without following a final symlink, without blocking (a FIFO swapped in is
// refused, never waited on) and without taking a controlling terminal.
const openFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NOCTTY

// openAt is openat(2) retried on EINTR.
func openAt(dirfd int, path string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, path, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openLong opens the absolute path with flags (which apply to its last component). A path longer
// than the kernel takes is opened directory by directory, each step relative to the previous
// one's descriptor with O_NOFOLLOW, so no depth is out of reach.
func openLong(path string, flags int) (int, error) {
	if len(path) <= pathMax {
		return openAt(unix.AT_FDCWD, path, flags)
	}
	dirfd, rest := unix.AT_FDCWD, path
	defer func() {
		if dirfd != unix.AT_FDCWD {
			unix.Close(dirfd)
		}
	}()
	for len(rest) > pathMax {
		// The longest prefix ending at a '/' that fits.
		cut := strings.LastIndexByte(rest[:pathMax+1], '/')
		if cut <= 0 {
			return -1, unix.ENAMETOOLONG
		}
		fd, err := openAt(dirfd, rest[:cut], unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
		if err != nil {
			return -1, err
		}
		if dirfd != unix.AT_FDCWD {
			unix.Close(dirfd)
		}
		dirfd, rest = fd, rest[cut+1:]
	}
	return openAt(dirfd, rest, flags)
}

// openRegular opens path for reading (as openRegularFD) as an *os.File.
func openRegular(path string) (*os.File, error) {
	fd, err := openRegularFD("", path)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openRegularFD opens path for reading without following a final symlink and without blocking
// (beneath the directory beneath when it is set: OpenBeneath), and checks that it is a regular file.
func openRegularFD(beneath, path string) (int, error) {
	fd, err := OpenBeneath(beneath, path, openFlags)
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

// openSearchable is openRegularFD that also refuses a file on a kernel pseudo filesystem.
func openSearchable(beneath, path string) (int, error) {
	fd, err := openRegularFD(beneath, path)
	if err != nil {
		return -1, err
	}
	if special, err := fdOnSpecialFS(fd); err != nil || special {
		unix.Close(fd)
		if err == nil {
			err = errSpecialFS
		}
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// readFull reads into p until it is full or the end of the file; it returns the bytes read and
// whether the end was reached. EAGAIN is errWouldBlock.
func readFull(fd int, p []byte) (int, bool, error) {
	n := 0
	for n < len(p) {
		m, err := sysRead(fd, p[n:])
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return n, false, errWouldBlock
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

// fdReaderAt reads a descriptor at offsets (pread); EAGAIN is errWouldBlock.
type fdReaderAt int

func (fd fdReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := sysPread(int(fd), p[n:], off+int64(n))
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return n, errWouldBlock
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
