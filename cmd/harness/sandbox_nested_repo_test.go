package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// git runs git in dir with discovery stopped at ceiling and no system or global config, and
// returns its combined output (a failing git is not a test failure: the planted directory may
// not be a repository at all).
func git(t *testing.T, dir, ceiling string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+ceiling, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("git %v in %s: %v", args, dir, err)
	}
	return string(out)
}

// A sandboxed model must not be able to make git run a command of its choosing: it plants (or
// rewrites) the config of a nested repository with core.fsmonitor set to a command that creates a
// file outside the workspace, through the real write and edit tools. Every such write is refused
// with the protected-path denial; then git status runs in every planted directory, and nothing
// appears outside the workspace. Covered: a fresh docs/.git, an existing nested clone
// (vendor/lib/.git: config and hooks), the git directory a gitlink (sub/.git) names, an embedded
// bare repository (assets/), a bare layout built piece by piece (planted/), and a worktree-style
// git directory pointing at it through commondir (wt/).
func TestSandboxedNestedRepositoryCannotRunCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	w := newSandboxWorld(t, func(base, ws, out string) {
		git(t, ws, base, "init", "-q", filepath.Join(ws, "vendor", "lib"))
		git(t, ws, base, "init", "-q", "--separate-git-dir="+filepath.Join(ws, "store"), filepath.Join(ws, "sub"))
		git(t, ws, base, "init", "-q", "--bare", filepath.Join(ws, "assets"))
		require.FileExists(t, filepath.Join(ws, "vendor", "lib", ".git", "config"))
		require.FileExists(t, filepath.Join(ws, "sub", ".git"))
		require.FileExists(t, filepath.Join(ws, "store", "config"))
		require.FileExists(t, filepath.Join(ws, "assets", "HEAD"))
	})
	// evil is a config whose fsmonitor creates out/PWNED-<name>; hook a hook that does the same.
	evil := func(name string) string {
		return "[core]\n\tfsmonitor = \"touch " + filepath.Join(w.out, "PWNED-"+name) + "; false\"\n"
	}
	hook := func(name string) string { return "#!/bin/sh\ntouch " + filepath.Join(w.out, "PWNED-"+name) + "\n" }

	var allowed []string
	deny := func(what string, r runLine) {
		t.Helper()
		if !r.IsError {
			allowed = append(allowed, what)
			return
		}
		requireDeniedLine(t, r, what)
	}
	// A fresh nested repository under a directory that has no .git.
	require.False(t, w.write("docs/README.md", "# docs\n").IsError)
	for _, p := range []struct{ path, content string }{
		{"docs/.git/HEAD", "ref: refs/heads/main\n"},
		{"docs/.git/config", evil("docs")},
		{"docs/.git/objects/info/packs", "\n"},
		{"docs/.git/refs/heads/.keep", "\n"},
	} {
		deny(p.path, w.write(p.path, p.content))
	}
	// An existing clone, the git directory of a gitlink, an embedded bare repository: config
	// rewritten by edit after a read, hooks written.
	for _, config := range []string{"vendor/lib/.git/config", "store/config", "assets/config"} {
		require.False(t, w.call("read", map[string]any{"file_path": config}, "").IsError, config)
		name := strings.ReplaceAll(config, "/", "-")
		deny("edit "+config, w.call("edit", map[string]any{"file_path": config, "old_string": "[core]", "new_string": strings.TrimSuffix(evil(name+"-edit"), "\n")}, ""))
		deny(config, w.write(config, evil(name)))
	}
	for _, h := range []string{"vendor/lib/.git/hooks/pre-commit", "store/hooks/post-checkout", "assets/hooks/pre-receive", "sub/.git"} {
		deny(h, w.write(h, hook(strings.ReplaceAll(h, "/", "-"))))
	}
	// A bare layout built piece by piece: the config and two of the three markers are ordinary
	// files in an ordinary directory; the piece that would complete HEAD + objects/ + refs/ is
	// refused, whichever it is.
	for _, p := range []string{"planted/config", "planted/HEAD", "planted/objects/info/packs"} {
		content := map[string]string{"planted/config": evil("planted"), "planted/HEAD": "ref: refs/heads/main\n"}[p]
		r := w.write(p, content+"\n")
		require.False(t, r.IsError, "%s: %s", p, r.Text)
	}
	deny("planted/refs/heads/main", w.write("planted/refs/heads/main", "0000000000000000000000000000000000000000\n"))
	// A worktree-style git directory (HEAD + commondir) naming the planted layout.
	require.False(t, w.write("wt/commondir", "../planted\n").IsError)
	deny("wt/HEAD", w.write("wt/HEAD", "ref: refs/heads/main\n"))

	for _, dir := range []string{"docs", "vendor/lib", "sub", "assets", "planted", "wt"} {
		out := git(t, filepath.Join(w.ws, dir), w.base, "status")
		t.Logf("git status in %s:\n%s", dir, out)
	}
	assert.Empty(t, allowed, "writes that planted repository content")
	assert.Empty(t, entries(t, w.out), "nothing appeared outside the workspace (PWNED-<name>: git ran a planted command)")
	assert.NoDirExists(t, filepath.Join(w.ws, "docs", ".git"), "a denied write creates no directory")
	assert.NoDirExists(t, filepath.Join(w.ws, "planted", "refs"))
}
