package hostfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// capabilityXattr holds a file's capabilities. The kernel drops it on any
// write to the file (even by root), and a replacement does the same: a
// rewritten binary must not inherit privileges.
const capabilityXattr = "security.capability"

// keptMeta is what a replacement carries from the file it replaces to the
// staged file before publication (see apply).
type keptMeta struct {
	uid, gid int         // -1: leave as created
	mode     os.FileMode // permission bits with setuid, setgid and sticky
	xattrs   []xattr
}

type xattr struct {
	name  string
	value []byte
}

// checkReplaceable refuses to replace the existing regular file at key
// (probed as info) for verb (fs.VerbWrite or fs.VerbEdit) when a plain open
// for writing would fail, or when no write bit is set at all (so root, whose
// open ignores the mode, is refused too): FS_PERMISSION_DENIED, as fs.FromOS
// codes the access check's EACCES or EPERM; when the replacement, a new inode,
// could not keep the file's owner or group (FS_PERMISSION_DENIED, see
// checkOwnerKept); and when it has more than one hard link, which a
// replacement would split. Only EACCES and EPERM from the access check
// refuse; other failures are left to the write itself. c is the process's
// credentials as the mutation read them (once: currentCreds), and so for metaOf.
func checkReplaceable(c creds, key string, info probeInfo, display, verb string) error {
	if info.Mode&0o222 == 0 {
		return fs.FromOS(verb, display, &os.PathError{Op: "access", Path: key, Err: unix.EACCES})
	}
	err := ignoringEINTR(func() error { return unix.Faccessat(unix.AT_FDCWD, key, unix.W_OK, unix.AT_EACCESS) })
	if isPermissionErr(err) {
		return fs.FromOS(verb, display, &os.PathError{Op: "access", Path: key, Err: err})
	}
	if err := checkOwnerKept(c, info, display, verb); err != nil {
		return err
	}
	if info.Nlink > 1 {
		if verb == fs.VerbEdit {
			return fs.EditHardLinked(display, info.Nlink)
		}
		return fs.WriteHardLinked(display, info.Nlink)
	}
	return nil
}

// checkOwnerKept refuses a replacement that could not give the new inode the
// file's owner and group, which a write(2) in place never changes: without
// CAP_CHOWN, a file owned by another user (the new inode would be the
// writer's) or whose group the writer is not in (chown to it is refused).
func checkOwnerKept(c creds, info probeInfo, display, verb string) error {
	switch {
	case c.chown:
		return nil
	case info.Uid != c.euid:
		return fs.OwnerNotKept(verb, display, info.Uid, c.euid)
	case !c.inGroup(info.Gid):
		return fs.GroupNotKept(verb, display, info.Gid)
	}
	return nil
}

// metaOf collects what a replacement of the file at key (probed as info)
// keeps: its owner, group, mode bits (less the setuid and setgid bits a
// write(2) by this process would clear, creds.writeKeepsMode) and extended
// attributes (read without following a final symlink; none where the file
// system has none).
func metaOf(c creds, key string, info probeInfo) (*keptMeta, error) {
	m := &keptMeta{uid: info.Uid, gid: info.Gid, mode: c.writeKeepsMode(info.Mode, info.Gid)}
	names, err := xattrData(func(b []byte) (int, error) { return unix.Llistxattr(key, b) })
	if err != nil {
		if isAbsentErr(err) || isNotSupported(err) {
			return m, nil
		}
		return nil, &os.PathError{Op: "listxattr", Path: key, Err: err}
	}
	for name := range strings.SplitSeq(string(names), "\x00") {
		if name == "" || name == capabilityXattr {
			continue
		}
		value, err := xattrData(func(b []byte) (int, error) { return unix.Lgetxattr(key, name, b) })
		if err != nil {
			return nil, &os.PathError{Op: "getxattr " + name, Path: key, Err: err}
		}
		m.xattrs = append(m.xattrs, xattr{name, value})
	}
	return m, nil
}

// xattrData runs a listxattr/getxattr-shaped call: the size first, then the
// data, again while the data outgrows the buffer (ERANGE).
func xattrData(call func([]byte) (int, error)) ([]byte, error) {
	for {
		var n int
		err := ignoringEINTR(func() (err error) { n, err = call(nil); return err })
		if err != nil || n == 0 {
			return nil, err
		}
		buf := make([]byte, n)
		err = ignoringEINTR(func() (err error) { n, err = call(buf); return err })
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}

func isNotSupported(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// apply gives the staged file f the kept metadata, in the order the kernel
// needs: owner and group first (a chown clears setuid and setgid), then the
// extended attributes (an ACL before the mode, so its mask and the group
// bits agree; an ACL the staged file got from its directory's default ACL is
// removed when the old file had none), then the mode through chmod. A chown
// the process may not make (checkOwnerKept refuses those first) fails the
// write with its EPERM. An attribute the staged file cannot take fails the
// write (FS_IO_ERROR), unless the file already has it with that value.
func (m *keptMeta) apply(f *os.File, display string, hooks *atomicHooks) error {
	if m.uid >= 0 || m.gid >= 0 {
		err := ignoringEINTR(func() error { return unix.Fchown(int(f.Fd()), m.uid, m.gid) })
		if err != nil {
			return &os.PathError{Op: "chown", Path: f.Name(), Err: err}
		}
	}
	fd := int(f.Fd())
	for _, x := range m.xattrs {
		err := ignoringEINTR(func() error { return unix.Fsetxattr(fd, x.name, x.value, 0) })
		if err != nil && !hasXattr(fd, x) {
			return fs.WriteIOError(display, fmt.Errorf("cannot keep its extended attribute %q: %w", x.name, err))
		}
	}
	if err := dropCreatedACL(f, m.xattrs); err != nil {
		return err
	}
	return hooks.doFchmod(f, m.mode)
}

// hasXattr reports whether the file fd already has x (a label the kernel gave
// the new file, say).
func hasXattr(fd int, x xattr) bool {
	v, err := xattrData(func(b []byte) (int, error) { return unix.Fgetxattr(fd, x.name, b) })
	return err == nil && bytes.Equal(v, x.value)
}
