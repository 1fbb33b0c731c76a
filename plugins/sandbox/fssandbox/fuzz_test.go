package fssandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// FuzzFenceContainment drives confined writes at arbitrary paths of a tree holding every kind of
// escape (a symlinked directory out, a dangling link out, a file link out, a hard link to an
// outside inode, a link from outside in, a protected .git). Whatever the path, a write under
// workspace-write never changes anything outside the workspace or inside .git, and a write that
// succeeds landed physically inside the workspace.
func FuzzFenceContainment(f *testing.F) {
	for _, s := range []string{
		"ws/x", "ws/a/b/c.txt", "ws/../out/x", "ws/link/x", "ws/link/new/deep", "ws/dangling",
		"ws/file-link", "ws/hard", "out/link-in", "ws/link/../y", "ws/.git/config", "ws/.git/hooks/h",
		"ws", "ws2/x", "out/x", "ws/.gitignore", "ws/./a//b/../z", "ws/file/x", "ws/\x00",
	} {
		f.Add(s)
	}
	w := newWorld(f, sandbox.WorkspaceWrite, nil)
	mk := func(err error) { require.NoError(f, err) }
	mk(os.MkdirAll(filepath.Join(w.ws, "a", "b"), 0o755))
	mk(os.MkdirAll(filepath.Join(w.ws, ".git"), 0o755))
	mk(os.WriteFile(filepath.Join(w.ws, ".git", "config"), []byte("[core]"), 0o644))
	mk(os.WriteFile(filepath.Join(w.ws, "file"), []byte("f"), 0o644))
	mk(os.WriteFile(filepath.Join(w.out, "file"), []byte("outside"), 0o644))
	mk(os.Symlink(w.out, filepath.Join(w.ws, "link")))
	mk(os.Symlink(filepath.Join(w.out, "new"), filepath.Join(w.ws, "dangling")))
	mk(os.Symlink(filepath.Join(w.out, "file"), filepath.Join(w.ws, "file-link")))
	mk(os.Link(filepath.Join(w.out, "file"), filepath.Join(w.ws, "hard")))
	mk(os.Symlink(filepath.Join(w.ws, "file"), filepath.Join(w.out, "link-in")))
	outBefore := tree(f, w.out)
	gitBefore := tree(f, filepath.Join(w.ws, ".git"))
	baseBefore := entriesOf(f, w.base)
	policy := w.policyFor(sandbox.WorkspaceWrite)

	f.Fuzz(func(t *testing.T, rel string) {
		path := w.base + "/" + rel
		if clean := filepath.Clean(path); clean != w.base && !strings.HasPrefix(clean, w.base+"/") {
			t.Skip("outside the fixture")
		}
		tg, err := w.fs.Resolve(context.Background(), path, fs.ResolveOptions{})
		if err != nil {
			return
		}
		_, err = w.fs.WriteText(sandbox.WithPolicy(context.Background(), policy), tg, "fuzz", nil)
		require.Equal(t, outBefore, tree(t, w.out), "outside changed by %q (err %v)", rel, err)
		require.Equal(t, "outside", readDisk(t, filepath.Join(w.out, "file")))
		require.Equal(t, gitBefore, tree(t, filepath.Join(w.ws, ".git")), ".git changed by %q", rel)
		require.Equal(t, "[core]", readDisk(t, filepath.Join(w.ws, ".git", "config")))
		require.Equal(t, baseBefore, entriesOf(t, w.base), "beside the workspace changed by %q", rel)
		if err == nil {
			fresh, rerr := w.fs.Resolve(context.Background(), tg.DisplayPath, fs.ResolveOptions{})
			require.NoError(t, rerr)
			real, eerr := filepath.EvalSymlinks(string(fresh.Key))
			require.NoError(t, eerr)
			require.True(t, within(real, w.ws), "%q landed at %q", rel, real)
		}
	})
}
