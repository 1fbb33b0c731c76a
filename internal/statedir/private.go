package statedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrRefused wraps every refusal of EnsurePrivate and OpenFile: what Cordon found there is not
// its own (docs/journal-threat-model.md).
var ErrRefused = errors.New("refused")

// EnsurePrivate creates dir, and the parents it lacks, mode 0700, then refuses it unless it is a
// directory (not a symlink) owned by this user that no other user can write.
func EnsurePrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return CheckPrivateDir(dir)
}

// CheckPrivateDir refuses dir unless it is a directory (not a symlink) owned by this user that no
// other user can write.
func CheckPrivateDir(dir string) error {
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return &os.PathError{Op: "lstat", Path: dir, Err: err}
	}
	return checkOwn(dir, &st, unix.S_IFDIR, 0o022)
}

// OpenFile opens path as os.OpenFile does, but never follows a final symlink and never blocks in
// the open (O_NOFOLLOW|O_NONBLOCK), and refuses (closing it) anything but a regular file owned by
// this user that no other user can write; the file returned is back in blocking mode.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := openOwn(path, flag, perm, unix.S_IFREG)
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openOwn opens path (close-on-exec) never following a final symlink and never blocking in the
// open (O_NOFOLLOW|O_NONBLOCK), and refuses (closing it) anything but a file of kind owned by this
// user that no other user can write. The descriptor stays non-blocking.
func openOwn(path string, flag int, perm os.FileMode, kind uint32) (int, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, uint32(perm.Perm()))
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
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
	if err := checkOwn(path, &st, kind, 0o022); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// CheckOwnFile refuses st (of path) unless it is a regular file owned by this user whose mode has
// none of the bits of deny.
func CheckOwnFile(path string, st *unix.Stat_t, deny uint32) error {
	return checkOwn(path, st, unix.S_IFREG, deny)
}

func checkOwn(path string, st *unix.Stat_t, kind, deny uint32) error {
	mode := uint32(st.Mode) // uint16 on darwin
	switch {
	case mode&unix.S_IFMT != kind:
		what := "not a regular file"
		switch kind {
		case unix.S_IFDIR:
			what = "not a directory"
		case unix.S_IFIFO:
			what = "not a FIFO"
		}
		return fmt.Errorf("%s: %w: %s", path, ErrRefused, what)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s: %w: owned by uid %d", path, ErrRefused, st.Uid)
	case mode&deny != 0:
		return fmt.Errorf("%s: %w: mode %04o lets another user write it", path, ErrRefused, mode&0o7777)
	}
	return nil
}

// Cordon returns "cordon" under the user's state directory, created 0700 and checked by
// EnsurePrivate; lookup reads the environment (os.LookupEnv).
func Cordon(lookup func(string) (string, bool)) (string, error) {
	home, err := StateHome(lookup)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(home, "cordon")
	return dir, EnsurePrivate(dir)
}
