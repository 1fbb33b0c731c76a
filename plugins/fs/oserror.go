package fs

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// osAdvice completes the system's description of an errno with what the model can do about it.
var osAdvice = map[syscall.Errno]string{
	syscall.ELOOP:        "a symbolic link on the path leads back to itself; use a path without the loop",
	syscall.ENAMETOOLONG: "use a shorter name",
	syscall.ENOSPC:       "free some space, then retry",
	syscall.EDQUOT:       "free some space, then retry",
	syscall.EROFS:        "files there cannot be changed",
	syscall.EFBIG:        "write less content",
	syscall.EIO:          "the device failed; retry, and if it fails again the file cannot be used",
	syscall.ETXTBSY:      "a running program holds it; retry later",
	syscall.EBUSY:        "retry later",
	syscall.EMLINK:       "the directory holds too many entries; use another directory",
	syscall.EEXIST:       "an entry on the path is in the way of a directory (a dangling symbolic link, say)",
}

// OSReason is the model-facing reason of an OS failure: the system's description of its errno
// (strerror, as in "no space left on device"), followed by " — <what to do>" where something can
// be done. The file names of the *os.PathError, *os.LinkError and *os.SyscallError wrapping it
// (the staging directory among them) are dropped. An *Error gives its message; any other error
// its text (a wrapper of this package's own, which names no path).
func OSReason(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Message
	}
	for {
		switch e := err.(type) {
		case *os.PathError:
			err = e.Err
		case *os.LinkError:
			err = e.Err
		case *os.SyscallError:
			err = e.Err
		case syscall.Errno:
			if advice, ok := osAdvice[e]; ok {
				return e.Error() + " — " + advice
			}
			return e.Error()
		case nil:
			return ""
		default:
			return err.Error()
		}
	}
}

// FromOS returns err as an *Error about the file the model named p (its DisplayPath), for an
// operation verb (a Verb constant; stat and lstat read "access"). err is returned unchanged when
// it is nil or already holds an *Error. Otherwise, with the OS error as the cause:
//
//   - ENOENT: FS_NOT_FOUND `cannot <verb> "<p>": not found`;
//   - ENOTDIR: FS_NOT_FOUND `cannot <verb> "<p>": a parent path segment is not a directory`;
//   - EACCES, EPERM: FS_PERMISSION_DENIED `cannot <verb> "<p>": permission denied`;
//   - EROFS: FS_PERMISSION_DENIED `cannot <verb> "<p>": <OSReason>`;
//   - EISDIR: FS_NOT_REGULAR_FILE `cannot <verb> "<p>": not a regular file`;
//   - anything else: FS_IO_ERROR `cannot <verb> "<p>": <OSReason>`.
func FromOS(verb, p string, err error) error {
	var fe *Error
	if err == nil || errors.As(err, &fe) {
		return err
	}
	if verb == VerbStat || verb == VerbLstat {
		verb = "access"
	}
	head := "cannot " + verb + " " + q(p) + ": "
	switch {
	case errors.Is(err, syscall.ENOENT):
		return NewError(CodeNotFound, head+"not found", err)
	case errors.Is(err, syscall.ENOTDIR):
		return NewError(CodeNotFound, head+"a parent path segment is not a directory", err)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return NewError(CodePermissionDenied, head+"permission denied", err)
	case errors.Is(err, syscall.EROFS):
		return NewError(CodePermissionDenied, head+OSReason(err), err)
	case errors.Is(err, syscall.EISDIR):
		return NewError(CodeNotRegularFile, head+"not a regular file", err)
	}
	return NewError(CodeIOError, head+OSReason(err), err)
}

// PathHasNUL is FS_NOT_FOUND `cannot resolve "<path>": the path contains a NUL byte, which no
// file name can hold — remove it, then retry`, path shown as sent with each NUL as \x00 (no
// system call accepts one, so no file can have that name). cause is the EINVAL a system call
// would give.
func PathHasNUL(path string, cause error) *Error {
	return NewError(CodeNotFound, "cannot resolve "+q(strings.ReplaceAll(path, "\x00", `\x00`))+
		": the path contains a NUL byte, which no file name can hold — remove it, then retry", cause)
}
