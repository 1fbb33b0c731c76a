package search

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// OpenBeneath beneath a root, with openat2 and with the O_NOFOLLOW walk: a file beneath opens; a
// symlinked directory or file, a path outside and ".." are errEscape.
func TestOpenPathBeneath(t *testing.T) {
	for _, walk := range []bool{false, true} {
		t.Run(map[bool]string{false: "openat2", true: "walk"}[walk], func(t *testing.T) {
			if walk {
				t.Cleanup(beneath.Disable())
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

			fd, err := OpenBeneath(root, filepath.Join(root, "in", "f.txt"), openFlags)
			require.NoError(t, err)
			require.NoError(t, unix.Close(fd))
			fd, err = OpenBeneath(root, root, dirFlags)
			require.NoError(t, err)
			require.NoError(t, unix.Close(fd))
			for _, p := range []string{filepath.Join(root, "dlink", "s.txt"), filepath.Join(out, "s.txt"), root + "/in/../../out/s.txt"} {
				_, err := OpenBeneath(root, p, openFlags)
				assert.ErrorIs(t, err, errEscape, p)
			}
			_, err = OpenBeneath(root, filepath.Join(root, "flink"), openFlags)
			assert.Error(t, err, "a final symlink is never followed")
			_, err = OpenBeneath(root, filepath.Join(root, "dlink"), dirFlags)
			assert.Error(t, err)
		})
	}
}
