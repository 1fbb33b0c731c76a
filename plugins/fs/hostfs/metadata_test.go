package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// replacement is one way to replace "old\n" with "new\n" in an existing file:
// the two mutations, unconfined and confined beneath the provider's dir.
type replacement struct {
	name string
	verb string
	run  func(p *hostfs.Provider, tg fs.Target, dir string) error
}

var replacements = []replacement{
	{"write", "write", func(p *hostfs.Provider, tg fs.Target, _ string) error {
		_, err := p.WriteText(context.Background(), tg, "new\n", nil)
		return err
	}},
	{"edit", "edit", func(p *hostfs.Provider, tg fs.Target, _ string) error {
		_, err := p.EditText(context.Background(), tg, edit("old", "new"), nil)
		return err
	}},
	{"write beneath", "write", func(p *hostfs.Provider, tg fs.Target, dir string) error {
		_, err := p.WriteTextBeneath(context.Background(), tg, "new\n", nil, hostfs.Beneath{Root: dir})
		return err
	}},
	{"edit beneath", "edit", func(p *hostfs.Provider, tg fs.Target, dir string) error {
		_, err := p.EditTextBeneath(context.Background(), tg, edit("old", "new"), nil, hostfs.Beneath{Root: dir})
		return err
	}},
}

func statOf(t *testing.T, path string) unix.Stat_t {
	t.Helper()
	var st unix.Stat_t
	require.NoError(t, unix.Stat(path, &st))
	return st
}

// The replaced file keeps its mode bits, setuid, setgid and sticky included
// (and, for root, its owner and group: TestReplaceKeepsOwnerAndGroup). A
// writer that is not root loses the setuid and setgid bits as its write(2)
// would (TestMetadataAsAnotherUser).
func TestReplaceKeepsModeBits(t *testing.T) {
	for _, r := range replacements {
		for _, mode := range []uint32{0o640, 0o4755, 0o2750, 0o1644, 0o6711, 0o200} {
			t.Run(r.name+" "+strconv.FormatUint(uint64(mode), 8), func(t *testing.T) {
				p, dir := newProvider(t)
				path := filepath.Join(dir, "f")
				writeFile(t, path, "old\n")
				require.NoError(t, unix.Chmod(path, mode))
				tg := resolve(t, p, "f")
				if r.verb == "edit" && mode&0o400 == 0 && os.Geteuid() != 0 {
					// An edit must read the file first; only root may read a write-only file.
					requireFsError(t, r.run(p, tg, dir), fs.CodePermissionDenied, `cannot edit "`+tg.DisplayPath+`": permission denied`)
					assert.Equal(t, "old\n", readDisk(t, path))
				} else {
					require.NoError(t, r.run(p, tg, dir))
					assert.Equal(t, "new\n", readDisk(t, path))
				}
				want := mode
				if os.Geteuid() != 0 {
					want &^= unix.S_ISUID
					if want&0o010 != 0 {
						want &^= unix.S_ISGID
					}
				}
				assert.Equal(t, want, uint32(statOf(t, path).Mode)&0o7777)
				requireClean(t, p, dir)
			})
		}
	}
}

// As root the replaced file keeps its owner and group (a 1000:1000 0640 file
// used to become root:root, its owner locked out).
func TestReplaceKeepsOwnerAndGroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away (as another user: TestMetadataAsAnotherUser)")
	}
	for _, r := range replacements {
		t.Run(r.name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f")
			writeFile(t, path, "old\n")
			require.NoError(t, os.Chown(path, 1000, 1000))
			require.NoError(t, unix.Chmod(path, 0o6640))
			require.NoError(t, r.run(p, resolve(t, p, "f"), dir))
			st := statOf(t, path)
			assert.Equal(t, [3]uint32{1000, 1000, 0o6640}, [3]uint32{st.Uid, st.Gid, uint32(st.Mode) & 0o7777})
			assert.Equal(t, "new\n", readDisk(t, path))
			requireClean(t, p, dir)
		})
	}
}

// A file nobody may write (no write bit at all) is refused with
// FS_PERMISSION_DENIED, even for root, whose open(2) would ignore the mode:
// the file, its version and its directory are untouched.
func TestReplaceRefusesReadOnlyFiles(t *testing.T) {
	for _, r := range replacements {
		for _, mode := range []uint32{0o444, 0o400, 0o555, 0o000, 0o4555} {
			t.Run(r.name+" "+strconv.FormatUint(uint64(mode), 8), func(t *testing.T) {
				p, dir := newProvider(t)
				path := filepath.Join(dir, "f")
				writeFile(t, path, "old\n")
				require.NoError(t, unix.Chmod(path, mode))
				tg := resolve(t, p, "f")
				before := versionOf(t, p, tg)
				err := r.run(p, tg, dir)
				requireFsError(t, err, fs.CodePermissionDenied, `cannot `+r.verb+` "`+tg.DisplayPath+`": permission denied`)
				assert.Equal(t, before, versionOf(t, p, tg))
				assert.Equal(t, "old\n", readDisk(t, path))
				requireClean(t, p, dir)
			})
		}
	}
}

// A file with more than one hard link is refused (FS_IO_ERROR, saying why):
// a replace by rename would split the links, the other names keeping the old
// content, and an in-place write could not be all-or-nothing.
func TestReplaceRefusesHardLinkedFiles(t *testing.T) {
	for _, r := range replacements {
		t.Run(r.name, func(t *testing.T) {
			p, dir := newProvider(t)
			path, other := filepath.Join(dir, "f"), filepath.Join(dir, "other")
			writeFile(t, path, "old\n")
			require.NoError(t, os.Link(path, other))
			tg := resolve(t, p, "f")
			err := r.run(p, tg, dir)
			requireFsError(t, err, fs.CodeIOError, `cannot `+r.verb+` "`+tg.DisplayPath+
				`": it has 2 hard links, and replacing it would split them (the other names would keep the old content)`)
			assert.Equal(t, "old\n", readDisk(t, path))
			assert.True(t, sameFile(t, path, other), "still one file")
			requireClean(t, p, dir)

			require.NoError(t, os.Remove(other))
			require.NoError(t, r.run(p, tg, dir), "one link left: replaced")
			assert.Equal(t, "new\n", readDisk(t, path))
		})
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Stat(a)
	require.NoError(t, err)
	fb, err := os.Stat(b)
	require.NoError(t, err)
	return os.SameFile(fa, fb)
}
