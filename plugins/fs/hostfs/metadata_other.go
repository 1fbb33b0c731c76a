//go:build !linux

package hostfs

import "os"

// dropCreatedACL has nothing to drop outside Linux, where creation gives a
// file no POSIX ACL.
func dropCreatedACL(*os.File, []xattr) error { return nil }
