package hostfs_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// xattrs returns the extended attributes of path, name => value.
func xattrs(t *testing.T, path string) map[string]string {
	t.Helper()
	buf := make([]byte, 64<<10)
	n, err := unix.Llistxattr(path, buf)
	require.NoError(t, err)
	out := map[string]string{}
	for _, name := range strings.Split(strings.TrimSuffix(string(buf[:n]), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		val := make([]byte, 64<<10)
		m, err := unix.Lgetxattr(path, name, val)
		require.NoError(t, err, name)
		out[name] = string(val[:m])
	}
	return out
}

// aclXattr is a POSIX access ACL (system.posix_acl_access): the owner rw,
// user 1000 rw, the group r, mask rw, others nothing.
func aclXattr() []byte {
	return aclBytes(aclEntry{aclUserObj, 6, aclNoID}, aclEntry{aclUser, 6, 1000}, aclEntry{aclGroupObj, 4, aclNoID},
		aclEntry{aclMask, 6, aclNoID}, aclEntry{aclOther, 0, aclNoID})
}

// The replaced file keeps its extended attributes (user.*, trusted.*,
// security.* labels, the POSIX ACL), copied to the staged file before
// publication, except security.capability, which the kernel drops on any
// write to a file and so does the replacement.
func TestReplaceKeepsExtendedAttributes(t *testing.T) {
	capability := []byte{0, 0, 0, 2, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0} // cap_net_bind_service
	attrs := []struct {
		name  string
		value []byte
	}{
		{"user.cordon.origin", []byte("kept")},
		{"user.cordon.binary", []byte{0, 1, 2, 0xFF}},
		{"user.cordon.empty", nil},
		{"trusted.cordon", []byte("root only")},
		{"security.cordon", []byte("label")},
		{"system.posix_acl_access", aclXattr()},
		{"security.capability", capability},
	}
	for _, r := range replacements {
		t.Run(r.name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f")
			writeFile(t, path, "old\n")
			var set []string
			for _, a := range attrs {
				if err := unix.Setxattr(path, a.name, a.value, 0); err != nil {
					t.Logf("%s not settable here: %v", a.name, err)
					continue
				}
				set = append(set, a.name)
			}
			require.Contains(t, set, "user.cordon.origin", "user attributes are needed for the test")
			want := xattrs(t, path)
			delete(want, "security.capability")
			wantMode := statOf(t, path).Mode & 0o7777
			require.NoError(t, r.run(p, resolve(t, p, "f"), dir))
			assert.Equal(t, "new\n", readDisk(t, path))
			assert.Equal(t, want, xattrs(t, path))
			assert.Equal(t, wantMode, uint32(statOf(t, path).Mode)&0o7777, "the ACL mask and the mode agree")
			requireClean(t, p, dir)
		})
	}
}

const (
	asUserEnv  = "CORDON_FSLOCAL_AS_USER_DIR"
	asUserDone = "as another user: checked"
	nobody     = 65534
)

// TestMetadataAsAnotherUser runs TestHelperAsAnotherUser in a child process
// as uid/gid 65534 (root only: setting the credentials needs it), so that the
// kernel's permission checks apply: a file the user may not open for writing
// is refused even though the directory would let a rename replace it; a
// user's own 0444 file is refused; a group-writable file of another owner is
// refused too, because the replacement would be the user's (it used to be
// written, its owner moved to the user); so is the user's own file whose
// group the user is not in. The user's own files are written, and lose the
// setuid and setgid bits as a write(2) by the user would: setuid always,
// setgid when the group may execute (it used to keep both).
func TestMetadataAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a child as another user")
	}
	base, err := os.MkdirTemp("", "hostfs-as-user")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	// The test binary may sit in a directory only root can search.
	bin := filepath.Join(base, "hostfs.test")
	copyFile(t, os.Args[0], bin, 0o755)
	dir := filepath.Join(base, "d")
	require.NoError(t, os.Mkdir(dir, 0o777))
	require.NoError(t, os.Chmod(dir, 0o777))
	type setup struct {
		uid, gid int
		mode     os.FileMode
	}
	files := map[string]setup{
		"roots":  {0, 0, 0o644},
		"own-ro": {nobody, nobody, 0o444},
		"shared": {0, nobody, 0o664 | os.ModeSetuid | os.ModeSetgid},
		"alien":  {nobody, 0, 0o664},
	}
	// Per replacement: the user's own files, setgid with and without group-exec.
	for i := range replacements {
		files["exec"+strconv.Itoa(i)] = setup{nobody, nobody, 0o775 | os.ModeSetuid | os.ModeSetgid}
		files["lock"+strconv.Itoa(i)] = setup{nobody, nobody, 0o664 | os.ModeSetgid}
	}
	for name, setup := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
		require.NoError(t, os.Chown(path, setup.uid, setup.gid))
		require.NoError(t, os.Chmod(path, setup.mode))
	}
	cmd := exec.Command(bin, "-test.run=^TestHelperAsAnotherUser$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), asUserEnv+"="+dir)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), asUserDone)

	for _, name := range []string{"roots", "own-ro", "shared", "alien"} {
		path := filepath.Join(dir, name)
		assert.Equal(t, "old\n", readDisk(t, path), name)
		st := statOf(t, path)
		want := files[name]
		assert.Equal(t, [3]uint32{uint32(want.uid), uint32(want.gid), uint32(unixMode(want.mode))},
			[3]uint32{st.Uid, st.Gid, uint32(st.Mode) & 0o7777}, name)
	}
	for i := range replacements {
		for name, mode := range map[string]uint32{"exec": 0o775, "lock": unix.S_ISGID | 0o664} {
			path := filepath.Join(dir, name+strconv.Itoa(i))
			assert.Equal(t, "new\n", readDisk(t, path), path)
			st := statOf(t, path)
			assert.Equal(t, [3]uint32{nobody, nobody, mode}, [3]uint32{st.Uid, st.Gid, uint32(st.Mode) & 0o7777}, path)
		}
	}
}

// unixMode is the st_mode permission bits of an os.FileMode.
func unixMode(m os.FileMode) uint32 {
	bits := uint32(m.Perm())
	if m&os.ModeSetuid != 0 {
		bits |= unix.S_ISUID
	}
	if m&os.ModeSetgid != 0 {
		bits |= unix.S_ISGID
	}
	if m&os.ModeSticky != 0 {
		bits |= unix.S_ISVTX
	}
	return bits
}

// TestHelperAsAnotherUser is the child of TestMetadataAsAnotherUser; it does
// nothing in a normal test run.
func TestHelperAsAnotherUser(t *testing.T) {
	dir := os.Getenv(asUserEnv)
	if dir == "" {
		return
	}
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	require.NoError(t, err)
	for _, r := range replacements {
		for _, name := range []string{"roots", "own-ro"} {
			tg := resolve(t, p, name)
			requireFsError(t, r.run(p, tg, dir), fs.CodePermissionDenied, `cannot `+r.verb+` "`+tg.DisplayPath+`": permission denied`)
		}
		tg := resolve(t, p, "shared")
		requireFsError(t, r.run(p, tg, dir), fs.CodePermissionDenied, `cannot `+r.verb+` "`+tg.DisplayPath+
			`": it is owned by another user (uid 0), and replacing it would make this process's user (uid 65534) its owner`)
		tg = resolve(t, p, "alien")
		requireFsError(t, r.run(p, tg, dir), fs.CodePermissionDenied, `cannot `+r.verb+` "`+tg.DisplayPath+
			`": its group (gid 0) is not one of this process's groups, and replacing it would change its group`)
	}
	for i, r := range replacements {
		for _, name := range []string{"exec", "lock"} {
			require.NoError(t, r.run(p, resolve(t, p, name+strconv.Itoa(i)), dir), r.name)
		}
	}
	require.Empty(t, residue(t, dir))
	t.Log(asUserDone)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, errors.Join(err, dst.Close()))
}
