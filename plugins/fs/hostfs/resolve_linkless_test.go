package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// TestResolveLinklessAgreesWithTheWalk: a path reached through no link resolves in one openat2
// call; every path, linked or not, resolves to the same key and fails with the same error as the
// component-by-component walk (openat2 disabled).
func TestResolveLinklessAgreesWithTheWalk(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	deep := filepath.Join(dir, "a", "b", "c")
	require.NoError(t, os.MkdirAll(deep, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deep, "f.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "alias")))
	require.NoError(t, os.Symlink("f.txt", filepath.Join(deep, "link.txt")))
	require.NoError(t, os.Symlink("loop", filepath.Join(deep, "loop")))
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	require.NoError(t, err)
	paths := []string{
		"a/b/c/f.txt", "a/b/c", "a/b/c/", "alias/b/c/f.txt", "a/b/c/link.txt", "alias/b/../b/c/f.txt",
		"a/b/c/missing.txt", "a/b/missing/f.txt", "a/b/c/f.txt/x", "a/b/c/f.txt/", "a/b/c/loop",
		"a/b/c/loop/x", "a/b/c/../c/f.txt",
	}
	type outcome struct{ key, display, err string }
	resolve := func() []outcome {
		var out []outcome
		for _, path := range paths {
			tg, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
			o := outcome{key: string(tg.Key), display: tg.DisplayPath}
			if err != nil {
				o.err = err.Error()
			}
			out = append(out, o)
		}
		return out
	}
	fast := resolve()
	require.Equal(t, filepath.Join(deep, "f.txt"), fast[0].key)
	require.Equal(t, filepath.Join(deep, "f.txt"), fast[3].key, "through the symlinked folder")
	require.Equal(t, filepath.Join(deep, "f.txt"), fast[4].key, "the symlinked file")
	t.Cleanup(beneath.Disable())
	require.Equal(t, resolve(), fast)
}
