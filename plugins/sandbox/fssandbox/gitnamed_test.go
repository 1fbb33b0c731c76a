package fssandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// gitRepoWith makes dir a repository (dir/.git laid out as git does) whose config is config.
func gitRepoWith(t testing.TB, dir, config string) {
	t.Helper()
	makeGitDir(t, filepath.Join(dir, ".git"))
	writeUser(t, filepath.Join(dir, ".git", "config"), config)
}

// writeUser writes a file as the user does, outside the sandbox.
func writeUser(t testing.TB, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// requireOrdinary asserts that a confined write of path succeeds.
func requireOrdinary(t *testing.T, w *world, path string) {
	t.Helper()
	require.NoError(t, w.write(t, path, "x"), path)
}

// docs/sandbox.md "Paths a repository's config names": the directory core.hooksPath names
// (relative to the work tree root), whether or not it exists, is protected with the
// protected-path denial; the cause names the setting and the file. With husky's layout
// (.husky/_) the scripts beside it in .husky are protected too.
func TestHooksPathIsProtected(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[core]\n\trepositoryformatversion = 0\n\thooksPath = .husky\n")
	requireProtected(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))
	fe := requireDenied(t, w.write(t, filepath.Join(w.ws, ".husky", "_", "h"), "x"), filepath.Join(w.ws, ".husky", "_", "h"), sandbox.WorkspaceWrite)
	assert.ErrorContains(t, errors.Unwrap(fe), "core.hookspath in "+filepath.Join(w.ws, ".git", "config"))
	requireProtected(t, w, filepath.Join(w.ws, ".HUSKY", "pre-commit")) // what a case-insensitive file system finds as .husky
	requireOrdinary(t, w, filepath.Join(w.ws, "src", "index.ts"))
	requireOrdinary(t, w, filepath.Join(w.ws, ".husky-notes"))

	writeUser(t, filepath.Join(w.ws, ".git", "config"), "[core]\n\thooksPath = .husky/_\n")
	requireProtected(t, w, filepath.Join(w.ws, ".husky", "_", "pre-commit"))
	requireProtected(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))

	abs := filepath.Join(w.ws, "tools", "hooks")
	writeUser(t, filepath.Join(w.ws, ".git", "config"), "[core]\n\thooksPath = "+abs+"\n")
	requireProtected(t, w, filepath.Join(abs, "pre-push"))
	requireOrdinary(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))
}

// The protection follows the config: when the user changes core.hooksPath (outside the sandbox),
// the next decision protects the new directory and no longer the old one.
func TestHooksPathChangeMovesTheProtection(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[core]\n\thooksPath = .husky\n")
	requireProtected(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))
	requireOrdinary(t, w, filepath.Join(w.ws, ".githooks", "pre-commit"))

	writeUser(t, filepath.Join(w.ws, ".git", "config"), "[core]\n\thooksPath = .githooks\n")
	requireProtected(t, w, filepath.Join(w.ws, ".githooks", "pre-commit"))
	requireOrdinary(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))
}

// include.path and includeIf.*.path name config files relative to the including file's
// directory: they are protected, and followed (every condition taken as true), so what an
// included file names is protected too; an include cycle ends.
func TestIncludedConfigsAreProtectedAndFollowed(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[include]\n\tpath = ../shared.gitconfig\n[includeIf \"gitdir:~/elsewhere/\"]\n\tpath = ../cfg/extra.inc\n")
	writeUser(t, filepath.Join(w.ws, "cfg", "extra.inc"), "[include]\n\tpath = more.inc\n")
	writeUser(t, filepath.Join(w.ws, "cfg", "more.inc"), "[include]\n\tpath = extra.inc\n[core]\n\thooksPath = tools/hooks\n")

	requireProtected(t, w, filepath.Join(w.ws, "shared.gitconfig"))
	for _, rel := range []string{"cfg/extra.inc", "cfg/more.inc", "tools/hooks/pre-commit"} {
		p := filepath.Join(w.ws, rel)
		requireDenied(t, w.write(t, p, "x"), p, sandbox.WorkspaceWrite)
	}
	assert.Equal(t, "[include]\n\tpath = more.inc\n", readDisk(t, filepath.Join(w.ws, "cfg", "extra.inc")))
	requireOrdinary(t, w, filepath.Join(w.ws, "cfg", "other.txt"))
}

// Command-valued settings: each word of the command with a "/" that lands in a writable root is
// protected (core.fsmonitor, a filter, a textconv by absolute path, a "!" alias, an "=" word); a
// command found on $PATH (core.editor = vim) protects nothing, nor does a boolean fsmonitor.
func TestCommandSettingsAreProtected(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[core]\n\tfsmonitor = ./tools/fsmon.sh\n\teditor = vim\n"+
		"[filter \"fmt\"]\n\tclean = scripts/clean.sh %f\n"+
		"[diff \"bin\"]\n\ttextconv = \""+filepath.Join(w.ws, "bin", "conv")+"\" --raw\n"+
		"[alias]\n\tship = \"!sh -c './release/ship.sh \\\"$1\\\"' -\"\n"+
		"[credential]\n\thelper = store --file=secrets/creds\n")
	for _, rel := range []string{"tools/fsmon.sh", "scripts/clean.sh", "bin/conv", "release/ship.sh", "secrets/creds"} {
		requireProtected(t, w, filepath.Join(w.ws, rel))
	}
	requireOrdinary(t, w, filepath.Join(w.ws, "vim", "plugin.vim"))
	requireOrdinary(t, w, filepath.Join(w.ws, "tools", "other.sh"))

	writeUser(t, filepath.Join(w.ws, ".git", "config"), "[core]\n\tfsmonitor = true\n")
	requireOrdinary(t, w, filepath.Join(w.ws, "tools", "fsmon.sh"))
}

// The repositories read: a nested one on the target's path (vendor/pkg), the one git finds above
// the workspace root (the workspace is a subdirectory of it), a linked worktree (a gitlink
// naming its git directory, whose commondir holds the config), and the global config, which
// applies to each of them.
func TestConfigsOfEveryGoverningRepository(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, filepath.Join(w.ws, "vendor", "pkg"), "[core]\n\thooksPath = .husky\n")
	requireProtected(t, w, filepath.Join(w.ws, "vendor", "pkg", ".husky", "pre-commit"))
	requireOrdinary(t, w, filepath.Join(w.ws, ".husky", "pre-commit"))

	gitRepoWith(t, w.base, "[core]\n\thooksPath = ws/repo-hooks\n")
	requireProtected(t, w, filepath.Join(w.ws, "repo-hooks", "post-merge"))

	wt := filepath.Join(w.ws, "wt")
	store := filepath.Join(w.out, "main.git")
	makeGitDir(t, store)
	writeUser(t, filepath.Join(store, "config"), "[core]\n\thooksPath = .wthooks\n")
	makeGitDir(t, filepath.Join(store, "worktrees", "wt"))
	writeUser(t, filepath.Join(store, "worktrees", "wt", "commondir"), "../..\n")
	writeUser(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(store, "worktrees", "wt")+"\n")
	requireProtected(t, w, filepath.Join(wt, ".wthooks", "pre-commit"))

	xdg := filepath.Join(w.out, "xdg")
	writeUser(t, filepath.Join(xdg, "git", "config"), "[core]\n\tsshCommand = ./.ssh-wrapper/run\n")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	requireProtected(t, w, filepath.Join(w.ws, "vendor", "pkg", ".ssh-wrapper", "run"))
}

// The same escalation as for .git: a denied write retried with a granted danger-full-access
// policy goes through; and without ".git" among the protected paths nothing a config names is
// protected.
func TestConfigNamedPathsEscalateAndFollowProtectedPaths(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[core]\n\thooksPath = .husky\n")
	hook := filepath.Join(w.ws, ".husky", "pre-commit")
	requireProtected(t, w, hook)
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, w.policyFor(sandbox.DangerFullAccess)), w.target(t, hook), "granted\n", nil)
	require.NoError(t, err)
	assert.Equal(t, "granted\n", readDisk(t, hook))

	off := newWorld(t, sandbox.WorkspaceWrite, &fssandbox.Config{ProtectedPaths: []string{}})
	gitRepoWith(t, off.ws, "[core]\n\thooksPath = .husky\n")
	requireOrdinary(t, off, filepath.Join(off.ws, ".husky", "pre-commit"))
}

// Only regular files are read as configs (and opened without blocking, in case one is swapped
// for a FIFO after the stat): an include that names a FIFO is protected, and writes go on.
func TestIncludedFIFOIsNotRead(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	gitRepoWith(t, w.ws, "[include]\n\tpath = ../pipe.inc\n")
	require.NoError(t, unix.Mkfifo(filepath.Join(w.ws, "pipe.inc"), 0o644))
	p := filepath.Join(w.ws, "pipe.inc")
	requireDenied(t, w.write(t, p, "x"), p, sandbox.WorkspaceWrite)
	requireOrdinary(t, w, filepath.Join(w.ws, "ordinary.txt"))
}

// The hooks directory the fence protects is the one git uses: for each spelling of
// core.hooksPath, `git rev-parse --git-path hooks` (run from a subdirectory) names a directory in
// which a write is refused.
func TestHooksPathResolvesAsGitDoes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	sub := filepath.Join(w.ws, "pkg", "src")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	gitCmd := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = sub
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+w.base, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	gitCmd("init", "-q", w.ws)
	for _, hooks := range []string{".husky", "tools/git-hooks", "./x/../.hooks", filepath.Join(w.ws, "abs-hooks"), "pkg/../../ws/.up"} {
		gitCmd("config", "core.hooksPath", hooks)
		dir := gitCmd("rev-parse", "--path-format=absolute", "--git-path", "hooks")
		requireProtected(t, w, filepath.Join(dir, "pre-commit"))
	}
}

// The included files the fence protects include every file git reads: each origin that
// `git config --list --show-origin` reports (includes followed) is refused.
func TestIncludesResolveAsGitDoes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	makeGitDir(t, filepath.Join(w.ws, ".git"))
	writeUser(t, filepath.Join(w.ws, ".git", "config"), "[include]\n\tpath = ../cfg/a.inc\n"+
		"[includeIf \"gitdir:"+w.ws+"/\"]\n\tpath = "+filepath.Join(w.ws, "cfg", "if.inc")+"\n")
	writeUser(t, filepath.Join(w.ws, "cfg", "a.inc"), "[include]\n\tpath = deeper/b.inc\n[a]\n\tk = 1\n")
	writeUser(t, filepath.Join(w.ws, "cfg", "deeper", "b.inc"), "[b]\n\tk = 2\n")
	writeUser(t, filepath.Join(w.ws, "cfg", "if.inc"), "[c]\n\tk = 3\n")
	cmd := exec.Command("git", "config", "--list", "--show-origin", "--includes", "-z")
	cmd.Dir = w.ws
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+w.base, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	origins := map[string]bool{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		if f, ok := strings.CutPrefix(fields[i], "file:"); ok && !strings.HasSuffix(f, filepath.Join(".git", "config")) {
			if !filepath.IsAbs(f) {
				f = filepath.Join(w.ws, f)
			}
			origins[filepath.Clean(f)] = true
		}
	}
	require.Len(t, origins, 3, "git read the three included files: %q", out)
	for f := range origins {
		requireDenied(t, w.write(t, f, "x"), f, sandbox.WorkspaceWrite)
	}
}
