package mcpstdio

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pollable returns a reader of in that waits in the runtime's poller instead of blocking a thread
// in read(2), and the function that undoes it, when in is an *os.File on a pipe or a socket in
// blocking mode; else in itself. A thread blocked in read makes the runtime's monitor take its
// processor back and poll every 20 µs while calls come in: most of the scheduling CPU of a call.
//
// A pipe is opened again through /proc/self/fd, a description of its own whose O_NONBLOCK no other
// holder sees. A socket cannot be, so its description (shared with whoever else holds it, usually
// nobody: a client closes its copy of the server's end) is made non-blocking and set back at undo,
// which must run before in is closed.
func pollable(in io.Reader) (io.Reader, func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	fd := int(f.Fd())
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return in, func() {}
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil || flags&unix.O_NONBLOCK != 0 || flags&unix.O_ACCMODE == unix.O_WRONLY {
		return in, func() {}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFIFO:
		nfd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return in, func() {}
		}
		p := os.NewFile(uintptr(nfd), f.Name())
		return p, func() { _ = p.Close() }
	case unix.S_IFSOCK:
		nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return in, func() {}
		}
		if unix.SetNonblock(nfd, true) != nil {
			_ = unix.Close(nfd)
			return in, func() {}
		}
		p := os.NewFile(uintptr(nfd), f.Name())
		return p, func() {
			_ = p.Close()                   // wakes a read waiting in the poller
			_ = unix.SetNonblock(fd, false) // the same description, through the caller's descriptor
		}
	}
	return in, func() {}
}
