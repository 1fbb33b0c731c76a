package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Swaps after the check: what the descriptors refuse and what they make harmless.

// A directory swapped for a symlink between the check and the write is refused, never followed:
// for an existing parent and for one still to be created below it.
func TestBeneathSwappedParentIsRefused(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		for _, rel := range []string{"d/f.txt", "d/newdir/deep.txt"} {
			t.Run(rel, func(t *testing.T) {
				fx := newBeneathFixture(t)
				d := filepath.Join(fx.ws, "d")
				require.NoError(t, os.Mkdir(d, 0o755))
				tg := fx.resolveT(filepath.Join(fx.ws, rel))
				hooks := &atomicHooks{beforeParent: func(string) {
					require.NoError(t, os.Rename(d, d+".moved"))
					require.NoError(t, os.Symlink(fx.out, d))
				}}
				_, err := fx.write(tg, "x", nil, hooks)
				requireDenied(t, fx, err)
				requireEmptyDir(t, fx.out)
			})
		}
	})
}

// A dangling symlink kept as a literal name in the missing suffix of a key is not a directory
// to create beneath: refused, and its outside target is not created.
func TestBeneathDanglingIntermediateSymlink(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		require.NoError(t, os.Symlink(filepath.Join(fx.out, "newdir"), filepath.Join(fx.ws, "dl")))
		tg := fx.resolveT(filepath.Join(fx.ws, "dl", "f.txt"))
		require.Equal(t, filepath.Join(fx.ws, "dl", "f.txt"), string(tg.Key), "the key keeps the link name")
		_, err := fx.p.WriteTextBeneath(fx.ctx, tg, "x", nil, fx.beneath)
		requireDenied(t, fx, err)
		requireEmptyDir(t, fx.out)
	})
}

// A regular file in the middle of the missing path is the ordinary raw error, not a denial.
func TestBeneathFileInThePathIsRaw(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		tg := fx.resolveT(filepath.Join(fx.ws, "blk", "f.txt"))
		require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "blk"), []byte("file"), 0o644))
		_, err := fx.write(tg, "x", nil, &atomicHooks{})
		require.ErrorIs(t, err, unix.ENOTDIR)
		assert.Empty(t, fs.CodeOf(err))
		assert.Empty(t, fx.denied)
	})
}

// The final component swapped for a symlink to an outside file: the rename replaces the link,
// the outside file keeps its content; a guarded create refuses the link as not regular.
func TestBeneathSwappedFinalComponent(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		secret := filepath.Join(fx.out, "secret")
		require.NoError(t, os.WriteFile(secret, []byte("outside"), 0o644))
		tg := fx.resolveT(filepath.Join(fx.ws, "f.txt"))
		swap := &atomicHooks{beforeParent: func(string) { require.NoError(t, os.Symlink(secret, string(tg.Key))) }}
		_, err := fx.write(tg, "inside", nil, swap)
		require.NoError(t, err)
		fi, err := os.Lstat(string(tg.Key))
		require.NoError(t, err)
		assert.True(t, fi.Mode().IsRegular(), "the link was replaced by the file")
		assert.Equal(t, "inside", readFile(t, string(tg.Key)))
		assert.Equal(t, "outside", readFile(t, secret))

		require.NoError(t, os.Remove(string(tg.Key)))
		_, err = fx.write(tg, "inside", fs.CreateIfAbsent(), swap)
		assert.True(t, errors.Is(err, fs.ErrNotRegularFile), "%v", err)
		assert.Equal(t, "outside", readFile(t, secret))
		assert.Equal(t, []string{"f.txt"}, entries(t, fx.ws), "staging removed")
	})
}

// Once the parent is held, moving it away and planting a symlink at its name changes nothing:
// the publication lands in the held directory, inside the root.
func TestBeneathHeldParentSurvivesASwap(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		d := filepath.Join(fx.ws, "d")
		require.NoError(t, os.Mkdir(d, 0o755))
		tg := fx.resolveT(filepath.Join(d, "f.txt"))
		hooks := &atomicHooks{inspectTemp: func(staging, _ string) {
			require.NoError(t, os.Rename(d, d+".moved"))
			require.NoError(t, os.Symlink(fx.out, d))
		}}
		_, err := fx.write(tg, "held", nil, hooks)
		require.NoError(t, err)
		assert.Equal(t, "held", readFile(t, filepath.Join(d+".moved", "f.txt")))
		requireEmptyDir(t, fx.out)
	})
}

// The staging directory moved away and replaced by a symlink to the outside: the temp file is
// published from the held staging descriptor and the cleanup removes the link, not its target.
func TestBeneathSwappedStagingDirectory(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		require.NoError(t, os.WriteFile(filepath.Join(fx.out, "keep"), []byte("k"), 0o644))
		tg := fx.resolveT(filepath.Join(fx.ws, "f.txt"))
		hooks := &atomicHooks{inspectTemp: func(staging, _ string) {
			require.NoError(t, os.Rename(staging, filepath.Join(fx.ws, "moved.tmpdir")))
			require.NoError(t, os.Symlink(fx.out, staging))
		}}
		_, err := fx.write(tg, "v", nil, hooks)
		require.NoError(t, err)
		assert.Equal(t, "v", readFile(t, string(tg.Key)))
		assert.Equal(t, []string{"keep"}, entries(t, fx.out), "the outside directory is untouched")
		assert.ElementsMatch(t, []string{"f.txt", "moved.tmpdir"}, entries(t, fx.ws), "the planted link is gone")
	})
}

// FuzzRelBeneath: the lexical gate of a confined mutation never admits a path outside the root:
// an accepted path is the root joined with a relative, clean remainder.
func FuzzRelBeneath(f *testing.F) {
	for _, s := range [][2]string{{"/ws", "/ws/x"}, {"/ws", "/ws2/x"}, {"/", "/x"}, {"/ws", "/ws"}, {"/ws", "/ws/../x"}, {"/ws/", "/ws/x"}, {"/ws", "/wsx"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, root, path string) {
		b := Beneath{Root: root}
		err := b.check(fs.Target{Key: fs.TargetKey(path), DisplayPath: path})
		if err != nil {
			require.ErrorIs(t, err, ErrEscape)
			return
		}
		rel, ok := relBeneath(root, path)
		require.True(t, ok)
		require.Equal(t, path, filepath.Join(root, rel))
		if rel != "." {
			require.False(t, filepath.IsAbs(rel))
			for _, c := range strings.Split(rel, "/") {
				require.NotEqual(t, "..", c, "%q under %q", path, root)
			}
		}
		r, err := filepath.Rel(root, path)
		require.NoError(t, err)
		require.Equal(t, rel, r)
	})
}
