package hostfs

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// accessACLXattr holds a file's POSIX access ACL.
const accessACLXattr = "system.posix_acl_access"

// dropCreatedACL removes from the staged file f the access ACL that its
// creation gave it from the directory's default ACL, when the file it
// replaces (whose attributes are kept) has none: a replacement keeps the old
// file's permissions, not the directory's defaults.
func dropCreatedACL(f *os.File, kept []xattr) error {
	for _, x := range kept {
		if x.name == accessACLXattr {
			return nil
		}
	}
	err := ignoringEINTR(func() error { return unix.Fremovexattr(int(f.Fd()), accessACLXattr) })
	if err == nil || errors.Is(err, unix.ENODATA) || isNotSupported(err) {
		return nil
	}
	return &os.PathError{Op: "removexattr " + accessACLXattr, Path: f.Name(), Err: err}
}
