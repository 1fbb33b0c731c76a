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

// docs/sandbox.md "Protected paths": under workspace-write, protected paths inside the writable roots (default .git) stay
// read-only.
func TestProtectedGitIsReadOnly(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	git := filepath.Join(w.ws, ".git")
	require.NoError(t, os.MkdirAll(filepath.Join(git, "hooks"), 0o755))
	config := filepath.Join(git, "config")
	require.NoError(t, os.WriteFile(config, []byte("[core]"), 0o644))

	for _, path := range []string{config, filepath.Join(git, "hooks", "pre-commit"), filepath.Join(git, "new", "deep"), git} {
		fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	}
	fe := requireDenied(t, w.edit(t, config, "[core]", "[evil]"), config, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	assert.Equal(t, "[core]", readDisk(t, config))
	assert.Equal(t, []string{"config", "hooks"}, entriesOf(t, git), "nothing created under .git")

	// Reading stays allowed.
	read, err := w.fs.ReadText(w.ctx, w.target(t, config))
	require.NoError(t, err)
	assert.Equal(t, "[core]", read.Text)

	// Names that only share the prefix are ordinary files.
	for _, name := range []string{".gitignore", ".git2/x", ".github/workflows/ci.yml", "sub/.git-notes"} {
		require.NoError(t, w.write(t, filepath.Join(w.ws, name), "ok"), name)
	}
}

// A .git that does not exist yet is protected too: the model cannot plant a repository (and its
// hooks) in the workspace.
func TestProtectedPathNeedNotExist(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.ws, ".git", "hooks", "post-checkout")
	requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	assert.NoDirExists(t, filepath.Join(w.ws, ".git"))
}

// Protected paths apply beneath every writable root, the temp roots included.
func TestProtectedInEveryRoot(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	tmp := filepath.Join(w.base, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(tmp, ".git", "config")
	fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	path = filepath.Join(tmp, "repo", ".git", "config")
	fe = requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath, "a nested .git, at any depth")
}

// A protected entry that is a symlink protects its canonical target too (a .git pointing at a
// directory elsewhere in the workspace).
func TestProtectedSymlinkedEntry(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	real := filepath.Join(w.ws, "gitdir")
	require.NoError(t, os.Mkdir(real, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(real, "config"), []byte("c"), 0o644))
	require.NoError(t, os.Symlink(real, filepath.Join(w.ws, ".git")))
	for _, path := range []string{filepath.Join(w.ws, ".git", "config"), filepath.Join(real, "config"), filepath.Join(real, "new")} {
		fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	}
	assert.Equal(t, "c", readDisk(t, filepath.Join(real, "config")))
}

// The option: custom entries (nested ones included), an empty list protecting nothing, and
// danger-full-access ignoring protection.
func TestProtectedPathsOption(t *testing.T) {
	t.Run("custom", func(t *testing.T) {
		w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{".cordon/policy", "secrets"}})
		assert.Equal(t, []string{".cordon/policy", "secrets"}, w.fs.ProtectedPaths())
		for _, rel := range []string{".cordon/policy", ".cordon/policy/x", "secrets/key"} {
			path := filepath.Join(w.ws, rel)
			requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
		}
		require.NoError(t, w.write(t, filepath.Join(w.ws, ".cordon", "other"), "x"))
		require.NoError(t, w.write(t, filepath.Join(w.ws, ".git", "config"), "x"), ".git is not in the list")
	})
	t.Run("nested entry through a symlinked directory", func(t *testing.T) {
		w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{"conf/locked"}})
		require.NoError(t, os.MkdirAll(filepath.Join(w.ws, "real", "locked"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(w.ws, "real"), filepath.Join(w.ws, "conf")))
		path := filepath.Join(w.ws, "real", "locked", "x")
		requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	})
	t.Run("empty list", func(t *testing.T) {
		w := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{}})
		require.NoError(t, w.write(t, filepath.Join(w.ws, ".git", "config"), "x"))
	})
	t.Run("default when nil", func(t *testing.T) {
		w := newWorld(t, sandbox.WorkspaceWrite, nil)
		assert.Equal(t, []string{".git"}, w.fs.ProtectedPaths())
	})
	t.Run("danger-full-access", func(t *testing.T) {
		w := newWorld(t, sandbox.DangerFullAccess, nil)
		require.NoError(t, w.write(t, filepath.Join(w.ws, ".git", "config"), "x"))
	})
	t.Run("read-only keeps its own text", func(t *testing.T) {
		w := newWorld(t, sandbox.ReadOnly, nil)
		path := filepath.Join(w.ws, ".git", "config")
		fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.ReadOnly)
		assert.NotErrorIs(t, fe, fssandbox.ErrProtectedPath)
	})
}

func entriesOf(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}
