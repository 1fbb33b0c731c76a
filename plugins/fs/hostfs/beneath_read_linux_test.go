package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openFileBeneath, with openat2 and with the O_NOFOLLOW walk: a file beneath the root opens; a
// symlink (to a directory or a file), a key outside the root or not clean is a refusal wrapping
// ErrEscape; a missing file is ENOENT, not a refusal.
func TestOpenFileBeneath(t *testing.T) {
	for _, walk := range []bool{false, true} {
		t.Run(map[bool]string{false: "openat2", true: "walk"}[walk], func(t *testing.T) {
			if walk {
				forceWalk(t)
			}
			base, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			root, out := filepath.Join(base, "root"), filepath.Join(base, "out")
			require.NoError(t, os.MkdirAll(filepath.Join(root, "in"), 0o755))
			require.NoError(t, os.Mkdir(out, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, "in", "f.txt"), []byte("inside"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(out, "s.txt"), []byte("secret"), 0o644))
			require.NoError(t, os.Symlink(out, filepath.Join(root, "dlink")))
			require.NoError(t, os.Symlink(filepath.Join(out, "s.txt"), filepath.Join(root, "flink")))

			fd, err := openFileBeneath(root, filepath.Join(root, "in", "f.txt"), unix.O_RDONLY|unix.O_CLOEXEC)
			require.NoError(t, err)
			f := os.NewFile(uintptr(fd), "f")
			b := make([]byte, 16)
			n, _ := f.Read(b)
			assert.Equal(t, "inside", string(b[:n]))
			require.NoError(t, f.Close())

			fd, err = openFileBeneath(root, root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
			require.NoError(t, err, "the root itself")
			require.NoError(t, unix.Close(fd))

			for _, key := range []string{
				filepath.Join(root, "dlink", "s.txt"),
				filepath.Join(root, "flink"),
				filepath.Join(out, "s.txt"),
				root + "/in/../../out/s.txt",
			} {
				_, err := openFileBeneath(root, key, unix.O_RDONLY|unix.O_CLOEXEC)
				assert.ErrorIs(t, err, ErrEscape, key)
			}
			_, err = openFileBeneath(filepath.Join(root, "dlink"), filepath.Join(root, "dlink", "s.txt"), unix.O_RDONLY|unix.O_CLOEXEC)
			assert.ErrorIs(t, err, ErrEscape, "a root that is a symlink is refused")
			_, err = openFileBeneath(root, filepath.Join(root, "in", "missing"), unix.O_RDONLY|unix.O_CLOEXEC)
			assert.True(t, errors.Is(err, unix.ENOENT) && !errors.Is(err, ErrEscape), "%v", err)
		})
	}
}
