package fs_test

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// FromOS codes each OS failure by its errno with the display path and the reason (docs/fs.md,
// "Errors"); the OS error stays the cause, and no path it carries reaches the message.
func TestFromOS(t *testing.T) {
	const staging = "/w/.a.txt.42.0b8f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4.tmpdir/a.txt.tmp"
	cases := []struct {
		errno syscall.Errno
		code  fs.Code
		text  string
	}{
		{syscall.ENOENT, fs.CodeNotFound, "not found"},
		{syscall.ENOTDIR, fs.CodeNotFound, "a parent path segment is not a directory"},
		{syscall.EACCES, fs.CodePermissionDenied, "permission denied"},
		{syscall.EPERM, fs.CodePermissionDenied, "permission denied"},
		{syscall.EROFS, fs.CodePermissionDenied, "read-only file system — files there cannot be changed"},
		{syscall.EISDIR, fs.CodeNotRegularFile, "not a regular file"},
		{syscall.ELOOP, fs.CodeIOError, "too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop"},
		{syscall.ENAMETOOLONG, fs.CodeIOError, "file name too long — use a shorter name"},
		{syscall.ENOSPC, fs.CodeIOError, "no space left on device — free some space, then retry"},
		{syscall.EDQUOT, fs.CodeIOError, "disk quota exceeded — free some space, then retry"},
		{syscall.EFBIG, fs.CodeIOError, "file too large — write less content"},
		{syscall.EIO, fs.CodeIOError, "input/output error — the device failed; retry, and if it fails again the file cannot be used"},
		{syscall.EEXIST, fs.CodeIOError, "file exists — an entry on the path is in the way of a directory (a dangling symbolic link, say)"},
		{syscall.ETXTBSY, fs.CodeIOError, "text file busy — a running program holds it; retry later"},
		{syscall.EBUSY, fs.CodeIOError, "device or resource busy — retry later"},
		{syscall.EMLINK, fs.CodeIOError, "too many links — the directory holds too many entries; use another directory"},
		{syscall.EXDEV, fs.CodeIOError, "invalid cross-device link"},
	}
	for _, c := range cases {
		for _, raw := range []error{
			&os.PathError{Op: "open", Path: staging, Err: c.errno},
			&os.LinkError{Op: "rename", Old: staging, New: "/w/a.txt", Err: c.errno},
			os.NewSyscallError("fsync", c.errno),
			c.errno,
		} {
			err := fs.FromOS(fs.VerbWrite, "a.txt", raw)
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, c.code, fe.Kind, c.errno.Error())
			assert.Equal(t, `cannot write "a.txt": `+c.text, fe.Message)
			assert.ErrorIs(t, err, c.errno)
			assert.Equal(t, raw, fe.Cause, "the OS error is the cause")
		}
	}
	err := fs.FromOS(fs.VerbStat, "/w/a.txt", syscall.ELOOP)
	assert.Contains(t, err.Error(), `cannot access "/w/a.txt": `, "stat and lstat read access")
	err = fs.FromOS(fs.VerbLstat, "/w/a.txt", syscall.EACCES)
	assert.Equal(t, `cannot access "/w/a.txt": permission denied`, err.Error())

	coded := fs.ReadBinary("/w/a.txt")
	wrapped := fmt.Errorf("context: %w", coded)
	assert.Same(t, coded, fs.FromOS(fs.VerbWrite, "x", coded), "an *Error passes unchanged")
	assert.Same(t, wrapped, fs.FromOS(fs.VerbWrite, "x", wrapped), "so does an error holding one")
	assert.NoError(t, fs.FromOS(fs.VerbWrite, "x", nil))
	plain := errors.New("fs-local: target key is not an absolute path")
	assert.Equal(t, `cannot write "x": fs-local: target key is not an absolute path`, fs.FromOS(fs.VerbWrite, "x", plain).Error())
}

// OSReason is the errno's description with its remedy, never a path; an *Error gives its
// message, any other error its text.
func TestOSReason(t *testing.T) {
	assert.Equal(t, "no space left on device — free some space, then retry",
		fs.OSReason(&os.PathError{Op: "write", Path: "/w/.x.tmpdir/x.tmp", Err: syscall.ENOSPC}))
	assert.Equal(t, "invalid argument", fs.OSReason(&os.PathError{Op: "open", Path: "/p", Err: syscall.EINVAL}))
	assert.Equal(t, "file already closed", fs.OSReason(&os.PathError{Op: "close", Path: "/p", Err: os.ErrClosed}))
	assert.Equal(t, `cannot read "/p": binary file`, fs.OSReason(fs.ReadBinary("/p")))
	assert.Equal(t, "busy", fs.OSReason(errors.New("busy")))
	assert.Equal(t, "", fs.OSReason(nil))
}

// PathHasNUL shows the path as sent, each NUL as \x00.
func TestPathHasNUL(t *testing.T) {
	err := fs.PathHasNUL("a\x00b/\x00", syscall.EINVAL)
	assert.Equal(t, fs.CodeNotFound, err.Kind)
	assert.Equal(t, `cannot resolve "a\x00b/\x00": the path contains a NUL byte, which no file name can hold — remove it, then retry`, err.Message)
	assert.ErrorIs(t, err, syscall.EINVAL)
}
