package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// makeGitDir lays out dir as git makes a git directory: HEAD, config, hooks/, objects/, refs/.
func makeGitDir(t testing.TB, dir string) {
	t.Helper()
	for _, d := range []string{"hooks", "objects/info", "refs/heads"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config"), []byte("[core]\n"), 0o644))
}

// requireProtected asserts the protected-path denial of a write of path and that its missing
// parents were not created.
func requireProtected(t *testing.T, w *world, path string) {
	t.Helper()
	existing := filepath.Dir(path)
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		existing = filepath.Dir(existing)
	}
	before := tree(t, existing)
	fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath, path)
	assert.Equal(t, before, tree(t, existing), "a denied write of %s creates nothing", path)
}

// A .git component at any depth below the writable roots, in every spelling git treats as .git
// (case folded, HFS+-ignorable code points dropped), whether or not it exists, and the .git
// entry itself (a gitlink file): protected. Names that only look alike are ordinary.
func TestNestedGitAtAnyDepth(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.MkdirAll(filepath.Join(w.ws, "docs"), 0o755))
	for _, rel := range []string{
		"docs/.git/HEAD", "docs/.git/config", "docs/.git/objects/info/packs", "docs/.git/refs/heads/main",
		"a/b/c/.git/hooks/post-checkout", "docs/.GIT/config", "docs/.Git/config", "docs/.g\u200cit/config",
		"docs/.git\ufeff/config", "docs/.git", "sub/.git",
	} {
		requireProtected(t, w, filepath.Join(w.ws, rel))
	}
	tmp := filepath.Join(w.base, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	requireProtected(t, w, filepath.Join(tmp, "repo", ".git", "config"))

	for _, rel := range []string{"docs/.gitignore", "docs/.github/x.yml", "docs/git/config", "docs/.git2/HEAD", "docs/x.git/config", ".gitmodules"} {
		require.NoError(t, w.write(t, filepath.Join(w.ws, rel), "ok"), rel)
	}
}

// An existing nested clone, the git directory a gitlink names, an embedded bare repository and a
// worktree-style git directory (HEAD + commondir): everything in them is protected, by write
// and by edit, however deep.
func TestExistingRepositoriesAreProtected(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	makeGitDir(t, filepath.Join(w.ws, "vendor", "lib", ".git"))
	makeGitDir(t, filepath.Join(w.ws, "store"))
	require.NoError(t, os.MkdirAll(filepath.Join(w.ws, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(w.ws, "sub", ".git"), []byte("gitdir: ../store\n"), 0o644))
	makeGitDir(t, filepath.Join(w.ws, "assets"))
	wt := filepath.Join(w.ws, "wt")
	require.NoError(t, os.MkdirAll(wt, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "HEAD"), []byte("ref: refs/heads/x\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "commondir"), []byte("../store\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "config.worktree"), []byte("[core]\n"), 0o644))

	for _, rel := range []string{
		"vendor/lib/.git/config", "vendor/lib/.git/hooks/pre-commit",
		"store/config", "store/hooks/post-checkout", "store/objects/ab/cdef", "store/info/attributes",
		"assets/config", "assets/hooks/pre-receive", "assets/refs/heads/x", "assets/new/deep/file", "assets/HEAD",
		"wt/config.worktree", "wt/HEAD", "wt/commondir",
	} {
		requireProtected(t, w, filepath.Join(w.ws, rel))
	}
	for _, config := range []string{"vendor/lib/.git/config", "store/config", "assets/config", "wt/config.worktree"} {
		path := filepath.Join(w.ws, config)
		fe := requireDenied(t, w.edit(t, path, "[core]", "[core]\n\tfsmonitor = evil"), path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
		assert.Equal(t, "[core]\n", readDisk(t, path))
	}
	// The worktree of a nested clone and of a gitlink is ordinary.
	for _, rel := range []string{"vendor/lib/src/main.go", "sub/README", "vendor/README"} {
		require.NoError(t, w.write(t, filepath.Join(w.ws, rel), "ok"), rel)
	}
}

// A repository layout cannot be completed piece by piece: git opens a directory with HEAD and
// either commondir or both objects and refs as a repository, so the write that would add the last
// of them (a file, or a directory made on the way) is refused, in any order, with no directory
// left behind; the other pieces alone are ordinary files.
func TestRepositoryLayoutCannotBeCompleted(t *testing.T) {
	cases := []struct {
		have  []string // entries of x before the write ("/" suffix: a directory)
		write string   // below x
		ok    bool
	}{
		{[]string{"HEAD", "objects/"}, "refs/heads/main", false},
		{[]string{"HEAD", "refs/"}, "objects/ab/cdef", false},
		{[]string{"objects/", "refs/"}, "HEAD", false},
		{[]string{"objects/", "refs/"}, "head", false},
		{[]string{"objects/", "refs/"}, "HE\u200dAD", false},
		{[]string{"HEAD", "objects/"}, "REFS/x", false},
		{[]string{"HEAD"}, "commondir", false},
		{[]string{"commondir"}, "HEAD", false},
		{[]string{"HEAD", "refs/"}, "objects", false}, // a file counts too
		{[]string{"objects/", "refs/"}, "config", true},
		{[]string{"HEAD"}, "objects/x", true},
		{[]string{"HEAD"}, "refs/x", true},
		{[]string{"HEAD", "objects/"}, "config", true},
		{[]string{"refs/"}, "objects/x", true},
		{nil, "HEAD", true},
		{nil, "commondir", true},
	}
	for _, c := range cases {
		w := newWorld(t, sandbox.WorkspaceWrite, nil)
		x := filepath.Join(w.ws, "x")
		require.NoError(t, os.Mkdir(x, 0o755))
		for _, e := range c.have {
			if name, ok := cutDir(e); ok {
				require.NoError(t, os.Mkdir(filepath.Join(x, name), 0o755))
			} else {
				require.NoError(t, os.WriteFile(filepath.Join(x, e), []byte("ref: refs/heads/main\n"), 0o644))
			}
		}
		path := filepath.Join(x, c.write)
		if c.ok {
			require.NoError(t, w.write(t, path, "x"), "%v + %s", c.have, c.write)
			continue
		}
		requireProtected(t, w, path)
	}
	// The workspace root itself.
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.Mkdir(filepath.Join(w.ws, "objects"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(w.ws, "refs"), 0o755))
	requireProtected(t, w, filepath.Join(w.ws, "HEAD"))
}

func cutDir(e string) (string, bool) {
	if len(e) > 0 && e[len(e)-1] == '/' {
		return e[:len(e)-1], true
	}
	return e, false
}

// The repository protection belongs to the ".git" protected entry: a list without it (the empty
// list included) leaves nested repositories writable, as it leaves the root's .git.
func TestRepositoryProtectionFollowsTheGitEntry(t *testing.T) {
	for _, list := range [][]string{{}, {"secrets"}} {
		w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: list})
		makeGitDir(t, filepath.Join(w.ws, "assets"))
		require.NoError(t, w.write(t, filepath.Join(w.ws, "docs", ".git", "config"), "x"), "%v", list)
		require.NoError(t, w.write(t, filepath.Join(w.ws, "assets", "config"), "x"), "%v", list)
	}
	w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{"secrets", ".git"}})
	requireProtected(t, w, filepath.Join(w.ws, "docs", ".git", "config"))
}
