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

// Protected entries match as git itself matches ".git" (verify_dotfile, core.protectHFS): case
// does not matter and the code points HFS+ ignores are ignored. On a case-insensitive file
// system (macOS by default) ".GIT/config" IS ".git/config", and a ".GIT" planted while no
// ".git" exists becomes the repository git finds, so the deny-list folds case on every
// platform (a stricter deny-list cannot widen the boundary; containment stays case-sensitive).
func TestProtectedSpellingsFoldCase(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.Mkdir(filepath.Join(w.ws, ".git"), 0o755))
	for _, rel := range []string{
		".GIT/config", ".Git/hooks/pre-commit", ".gIT", "./.GIT/x", "a/../.GiT/y",
		".g\u200cit/config", ".git\u200d/config", "\ufeff.git/config", ".GI\u206aT/hooks/x",
	} {
		path := filepath.Join(w.ws, rel)
		fe := requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath, rel)
	}
	assert.Equal(t, []string{".git"}, entriesOf(t, w.ws), "nothing created")
	// Names that merely resemble it stay writable.
	for _, rel := range []string{".gitx/config", "x.git/config", ".gi/t", "git/config"} {
		require.NoError(t, w.write(t, filepath.Join(w.ws, rel), "ok"), rel)
	}
	// A configured entry folds the same way, component by component.
	w = newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{".cordon/policy"}})
	path := filepath.Join(w.ws, ".Cordon", "POLICY", "x")
	requireDenied(t, w.write(t, path, "x"), path, sandbox.WorkspaceWrite)
	require.NoError(t, w.write(t, filepath.Join(w.ws, ".Cordon", "other"), "ok"))
}

// A workspace that is a subdirectory of a repository inside a temp root (a session working in
// <tmp>/repo/sub): the repository's .git lies outside the workspace but inside the temp root, so
// containment admits it; the protected entries of the workspace root's ancestors within the
// writable root that contains them are protected too, and so is a repository elsewhere in the
// temp root (nested repositories are protected at any depth).
func TestProtectedAboveTheWorkspaceInATempRoot(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	tmp := filepath.Join(w.base, "tmp")
	repo := filepath.Join(tmp, "repo")
	sub := filepath.Join(repo, "sub")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git", "hooks"), 0o755))
	require.NoError(t, os.Mkdir(sub, 0o755))
	t.Setenv("TMPDIR", tmp)
	policy := &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: sub}
	for _, path := range []string{filepath.Join(repo, ".git", "config"), filepath.Join(repo, ".git", "hooks", "pre-commit"), filepath.Join(repo, ".GIT", "x")} {
		_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
		fe := requireDenied(t, err, path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	}
	assert.Equal(t, []string{"hooks"}, entriesOf(t, filepath.Join(repo, ".git")))
	for _, path := range []string{filepath.Join(sub, "ok.txt"), filepath.Join(repo, "top.txt")} {
		_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
		require.NoError(t, err, path)
	}
	path := filepath.Join(tmp, "other", ".git", "config")
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
	requireDenied(t, err, path, sandbox.WorkspaceWrite)
}

// A write that would create the protected entry itself (a ".git" file pointing a repository
// elsewhere, "gitdir: ...") is denied while nothing exists at that name, and so is an edit of an
// existing .git file (a worktree's pointer).
func TestProtectedEntryItselfCannotBeCreatedOrEdited(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	git := filepath.Join(w.ws, ".git")
	fe := requireDenied(t, w.write(t, git, "gitdir: /elsewhere\n"), git, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	assert.NoFileExists(t, git)
	require.NoError(t, os.WriteFile(git, []byte("gitdir: /real\n"), 0o644))
	fe = requireDenied(t, w.edit(t, git, "/real", "/evil"), git, sandbox.WorkspaceWrite)
	assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath)
	assert.Equal(t, "gitdir: /real\n", readDisk(t, git))
}

// A workspace that is a git worktree: its .git is a pointer file ("gitdir: <dir>"), and the
// repository's hooks live in the common directory that <dir>/commondir names. When a temp root
// admits them (worktrees are commonly made under /tmp), both the worktree's git directory and
// the common directory stay read-only; the main checkout's files do not.
func TestProtectedWorktreeGitDirs(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	tmp := filepath.Join(w.base, "tmp")
	main, wt := filepath.Join(tmp, "main"), filepath.Join(tmp, "wt")
	gitdir := filepath.Join(main, ".git", "worktrees", "wt")
	require.NoError(t, os.MkdirAll(filepath.Join(main, ".git", "hooks"), 0o755))
	require.NoError(t, os.MkdirAll(gitdir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644))
	require.NoError(t, os.MkdirAll(wt, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644))
	t.Setenv("TMPDIR", tmp)
	policy := &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: wt}
	for _, path := range []string{
		filepath.Join(main, ".git", "hooks", "pre-commit"), filepath.Join(main, ".git", "config"),
		filepath.Join(gitdir, "HEAD"), filepath.Join(wt, ".git"),
	} {
		_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
		fe := requireDenied(t, err, path, sandbox.WorkspaceWrite)
		assert.ErrorIs(t, fe, fssandbox.ErrProtectedPath, path)
	}
	assert.Equal(t, []string{"hooks", "worktrees"}, entriesOf(t, filepath.Join(main, ".git")))
	for _, path := range []string{filepath.Join(main, "src.txt"), filepath.Join(wt, "src.txt")} {
		_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
		require.NoError(t, err, path)
	}
	// A relative gitdir is taken against the worktree, and protects a git directory that neither
	// has ".git" in its path nor the repository layout yet; a pointer that is not one protects
	// only itself.
	plain := filepath.Join(tmp, "plain", "gd")
	require.NoError(t, os.MkdirAll(plain, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../plain/gd"), 0o644))
	path := filepath.Join(plain, "config")
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
	requireDenied(t, err, path, sandbox.WorkspaceWrite)
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("not a pointer"), 0o644))
	_, err = w.fs.WriteText(sandbox.WithPolicy(w.ctx, policy), w.target(t, path), "x", nil)
	require.NoError(t, err)
}
