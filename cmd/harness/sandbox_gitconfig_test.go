package main_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/sandbox.md "Paths a repository's config names", through `harness run --profile sandboxed`:
// in a workspace whose repository sets core.hooksPath = .husky (as husky does) and includes a
// config file from the work tree, the hook and the included file are refused with the sandbox
// denial and its escalation hint, and nothing is created; when the user changes the config while
// the harness runs, the protection moves with it; a granted escalation writes the hook.
func TestSandboxedGitConfigNamedPaths(t *testing.T) {
	config := func(hooks string) string {
		return "[core]\n\trepositoryformatversion = 0\n\thooksPath = " + hooks + "\n[include]\n\tpath = ../.gitconfig.local\n"
	}
	w := newSandboxWorld(t, func(_, ws, _ string) {
		for _, d := range []string{".git/objects", ".git/refs/heads", ".git/hooks"} {
			require.NoError(t, os.MkdirAll(filepath.Join(ws, d), 0o755))
		}
		require.NoError(t, os.WriteFile(filepath.Join(ws, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(ws, ".git", "config"), []byte(config(".husky")), 0o644))
	})
	hook := "#!/bin/sh\ntouch " + filepath.Join(w.out, "PWNED") + "\n"

	requireDeniedLine(t, w.write(".husky/pre-commit", hook), ".husky/pre-commit")
	assert.NoDirExists(t, filepath.Join(w.ws, ".husky"))
	requireDeniedLine(t, w.write(".gitconfig.local", "[core]\n\tfsmonitor = ./x.sh\n"), ".gitconfig.local")
	assert.NoFileExists(t, filepath.Join(w.ws, ".gitconfig.local"))
	r := w.write(".githooks/pre-commit", hook)
	require.False(t, r.IsError, r.Text)

	require.NoError(t, os.WriteFile(filepath.Join(w.ws, ".git", "config"), []byte(config(".githooks")), 0o644))
	requireDeniedLine(t, w.write(".githooks/pre-commit", "#!/bin/sh\n"), ".githooks/pre-commit after the change")
	assert.Equal(t, hook, readFile(t, filepath.Join(w.ws, ".githooks", "pre-commit")))
	r = w.write(".husky/pre-commit", hook)
	assert.False(t, r.IsError, ".husky is ordinary once hooksPath moved: %s", r.Text)
	assert.Empty(t, entries(t, w.out))

	// The escalation is the one of .git: granted by the user, the retried write goes through.
	p := startRun(t, "--profile", "sandboxed", "--cwd", w.ws, "--approve", "allow-once")
	requireDeniedLine(t, p.call(jsonLine(map[string]any{"id": 1, "tool": "write", "args": map[string]any{
		"file_path": ".githooks/pre-push", "content": "#!/bin/sh\n"}})), "plain write of .githooks/pre-push")
	r = p.call(jsonLine(map[string]any{"id": 2, "tool": "write", "args": map[string]any{
		"file_path": ".githooks/pre-push", "content": "#!/bin/sh\nexit 0\n",
		"sandbox_permissions": "danger-full-access", "justification": "The user asked for a pre-commit hook.",
	}}))
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, "#!/bin/sh\nexit 0\n", readFile(t, filepath.Join(w.ws, ".githooks", "pre-push")))
}
