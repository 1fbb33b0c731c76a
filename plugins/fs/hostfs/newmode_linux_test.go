package hostfs_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// aclEntry is one entry of a POSIX ACL in its xattr form.
type aclEntry struct {
	tag, perm uint16
	id        uint32
}

const (
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclMask     = 0x10
	aclOther    = 0x20
	aclNoID     = 0xFFFFFFFF
)

// aclBytes encodes entries (in tag order) as system.posix_acl_* holds them.
func aclBytes(entries ...aclEntry) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}

// aclDir returns a fresh directory with the default ACL u::rwx,u:1000:rw-,
// g::r-x,m::rwx,o::r-x, set through the xattr (no tool needed).
func aclDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	def := aclBytes(aclEntry{aclUserObj, 7, aclNoID}, aclEntry{aclUser, 6, 1000}, aclEntry{aclGroupObj, 5, aclNoID},
		aclEntry{aclMask, 7, aclNoID}, aclEntry{aclOther, 5, aclNoID})
	if err := unix.Setxattr(dir, "system.posix_acl_default", def, 0); errors.Is(err, unix.EOPNOTSUPP) {
		t.Skipf("no POSIX ACLs on the file system of %s", dir)
	} else {
		require.NoError(t, err)
	}
	return dir
}

// In a directory with a default ACL a new file takes it, masked by the
// creation mode 0666 and not by the umask, as open(2) does: here mode 0664
// and u:1000 rw- effective (the mask rw-). It used to be 0600 with the mask
// ---, so the ACL granted nothing. A new directory on the way takes the
// default ACL too, and so does the file in it.
func TestNewFileFollowsTheDefaultACL(t *testing.T) {
	want := aclBytes(aclEntry{aclUserObj, 6, aclNoID}, aclEntry{aclUser, 6, 1000}, aclEntry{aclGroupObj, 5, aclNoID},
		aclEntry{aclMask, 6, aclNoID}, aclEntry{aclOther, 4, aclNoID})
	for way, create := range newFileWays {
		t.Run(way, func(t *testing.T) {
			dir := aclDir(t)
			p, err := newProviderIn(dir)
			require.NoError(t, err)
			for _, name := range []string{"new.txt", "sub/new.txt"} {
				require.NoError(t, create(p, resolve(t, p, name), dir))
				path := filepath.Join(dir, name)
				assert.Equal(t, os.FileMode(0o664), permOf(t, path), name)
				assert.Equal(t, string(want), xattrs(t, path)["system.posix_acl_access"], name)
			}
			requireClean(t, p, dir)
		})
	}
}

// A replacement in such a directory keeps the old file's permissions: a file
// without an ACL stays without one (the staged file's inherited ACL is
// dropped; it used to be kept, its mask set from the old group bits).
func TestReplaceInADefaultACLDirectoryKeepsNoACL(t *testing.T) {
	for _, r := range replacements {
		t.Run(r.name, func(t *testing.T) {
			dir := aclDir(t)
			p, err := newProviderIn(dir)
			require.NoError(t, err)
			path := filepath.Join(dir, "f")
			writeFile(t, path, "old\n")
			require.NoError(t, unix.Removexattr(path, "system.posix_acl_access"))
			require.NoError(t, os.Chmod(path, 0o640))
			require.NoError(t, r.run(p, resolve(t, p, "f"), dir))
			assert.Equal(t, "new\n", readDisk(t, path))
			assert.NotContains(t, xattrs(t, path), "system.posix_acl_access")
			assert.Equal(t, os.FileMode(0o640), permOf(t, path))
			requireClean(t, p, dir)
		})
	}
}

// In a setgid directory a new file takes the directory's group, as open(2)
// gives it; the staging directory's chmod used to clear the setgid bit it
// inherited, so the file took the process's group.
func TestNewFileInASetgidDirectoryTakesItsGroup(t *testing.T) {
	gid := otherGroup(t)
	for way, create := range newFileWays {
		t.Run(way, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			require.NoError(t, os.Chown(dir, -1, gid))
			require.NoError(t, os.Chmod(dir, 0o777|os.ModeSetgid))
			p, err := newProviderIn(dir)
			require.NoError(t, err)
			require.NoError(t, create(p, resolve(t, p, "new.txt"), dir))
			assert.EqualValues(t, gid, statOf(t, filepath.Join(dir, "new.txt")).Gid)
			requireClean(t, p, dir)
		})
	}
}

// otherGroup is a group the process may give its files other than its
// effective one: 65534 for root, else a supplementary group.
func otherGroup(t *testing.T) int {
	t.Helper()
	if os.Geteuid() == 0 {
		return 65534
	}
	groups, err := os.Getgroups()
	require.NoError(t, err)
	for _, g := range groups {
		if g != os.Getegid() {
			return g
		}
	}
	t.Skip("needs root or a supplementary group")
	return 0
}

func newProviderIn(dir string) (*hostfs.Provider, error) {
	return hostfs.New(hostfs.Config{Cwd: dir}, nil)
}
