package fssandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// Spec 6.1 item 6 for edit: an edit through a hard link inside the workspace to an outside inode
// is refused (fs-local never replaces a file with more than one link: a rename would split them,
// docs/fs.md), so the outside file keeps its bytes and both names stay one file.
func TestHardLinkEditLeavesTheOutsideInode(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	outside := filepath.Join(w.out, "file")
	require.NoError(t, os.WriteFile(outside, []byte("shared"), 0o644))
	inside := filepath.Join(w.ws, "hard")
	require.NoError(t, os.Link(outside, inside))
	fe := requireCode(t, w.edit(t, inside, "shared", "edited"), fs.CodeIOError)
	assert.Contains(t, fe.Message, "it has 2 hard links")
	assert.Equal(t, "shared", readDisk(t, inside))
	assert.Equal(t, "shared", readDisk(t, outside))
	a, _ := os.Stat(inside)
	b, _ := os.Stat(outside)
	assert.True(t, os.SameFile(a, b))
}

// Spec 6.1 item 7: a link inside the workspace to a file under a temp root is writable (the key
// is the target's realpath, the link is kept); a link to anywhere else is denied.
func TestSymlinkedFileIntoATempRoot(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	tmp := filepath.Join(w.base, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	target := filepath.Join(tmp, "t.txt")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	link := filepath.Join(w.ws, "to-tmp")
	require.NoError(t, os.Symlink(target, link))
	require.NoError(t, w.write(t, link, "new"))
	assert.Equal(t, "new", readDisk(t, target))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link is kept")
	require.NoError(t, w.edit(t, link, "new", "newer"))
	assert.Equal(t, "newer", readDisk(t, target))
}

// Spec 6.1 item 21: a symlink loop and a path the kernel refuses (too long, NUL) fail with an
// error that is never a grant: nothing is written, inside or outside, and the failure is not
// mistaken for containment.
func TestUnresolvablePathsAreNeverContained(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.Symlink("loop", filepath.Join(w.ws, "loop")))
	require.NoError(t, os.Symlink(filepath.Join(w.ws, "b"), filepath.Join(w.ws, "a")))
	require.NoError(t, os.Symlink(filepath.Join(w.ws, "a"), filepath.Join(w.ws, "b")))
	long := w.ws
	for len(long) < 5000 {
		long = filepath.Join(long, strings.Repeat("d", 200))
	}
	for _, path := range []string{
		filepath.Join(w.ws, "loop"), filepath.Join(w.ws, "loop", "x"), filepath.Join(w.ws, "a", "x"),
		filepath.Join(w.ws, strings.Repeat("n", 300)), filepath.Join(long, "f"), filepath.Join(w.ws, "nul\x00x"),
	} {
		_, err := w.fs.WriteText(w.ctx, fs.Target{Key: fs.TargetKey(path), DisplayPath: path}, "x", nil)
		require.Error(t, err, "%.80s", path)
		_, err = w.fs.EditText(w.ctx, fs.Target{Key: fs.TargetKey(path), DisplayPath: path}, fs.EditRequest{OldString: "a", NewString: "b"}, nil)
		require.Error(t, err, "%.80s", path)
	}
	assert.ElementsMatch(t, []string{"loop", "a", "b"}, entriesOf(t, w.ws), "nothing created in the workspace")
	assert.Empty(t, tree(t, w.out))
}

// Spec 2.7 "ws itself" for every writable root, and the "/" root: the root passes the fence and
// fails on the file type, with nothing created; a trailing slash or "." names the same root.
func TestRootsThemselvesAreNotFiles(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	tmp := filepath.Join(w.base, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	for _, path := range []string{w.ws, w.ws + "/", w.ws + "/.", tmp, tmp + "/", "/tmp"} {
		requireCode(t, w.write(t, path, "x"), fs.CodeNotRegularFile)
	}
	requireCode(t, w.edit(t, w.ws, "a", "b"), fs.CodeNotRegularFile)
	assert.Empty(t, tree(t, w.ws))
	assert.Empty(t, tree(t, tmp))
}

// A trailing slash on a new name is collapsed lexically (as path.Clean does):
// the file lands inside, under its name.
func TestTrailingSlashIsLexical(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, w.write(t, w.ws+"/new.txt/", "x"))
	assert.Equal(t, "x", readDisk(t, filepath.Join(w.ws, "new.txt")))
	path := w.out + "/escape.txt/"
	requireDenied(t, w.write(t, path, "x"), filepath.Clean(path), sandbox.WorkspaceWrite)
	assert.Empty(t, tree(t, w.out))
}
