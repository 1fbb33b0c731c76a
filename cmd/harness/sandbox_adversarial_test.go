package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// sandboxWorld is base/{ws,out} outside every writable root (under $HOME), with a live
// `harness run --profile sandboxed --cwd ws` (no approval channel).
type sandboxWorld struct {
	base, ws, out string
	p             *runProc
	id            int
}

func newSandboxWorld(t *testing.T, prepare func(base, ws, out string)) *sandboxWorld {
	t.Helper()
	base := sandboxtest.OutsideDir(t)
	w := &sandboxWorld{base: base, ws: filepath.Join(base, "ws"), out: filepath.Join(base, "out")}
	require.NoError(t, mkdir(w.ws))
	require.NoError(t, mkdir(w.out))
	if prepare != nil {
		prepare(w.base, w.ws, w.out)
	}
	w.p = startRun(t, "--profile", "sandboxed", "--cwd", w.ws)
	return w
}

// call runs one tool call in session s1; cwd, when not "", sets the session's cwd from this call on.
func (w *sandboxWorld) call(tool string, args map[string]any, cwd string) runLine {
	w.id++
	line := map[string]any{"id": w.id, "tool": tool, "args": args, "session": "s1"}
	if cwd != "" {
		line["cwd"] = cwd
	}
	return w.p.call(jsonLine(line))
}

func (w *sandboxWorld) write(path, content string) runLine {
	return w.call("write", map[string]any{"file_path": path, "content": content}, "")
}

func requireDeniedLine(t *testing.T, r runLine, msgAndArgs ...any) {
	t.Helper()
	assert.True(t, r.IsError, msgAndArgs...)
	assert.True(t, strings.HasPrefix(r.Text, deniedMarker+"\n"), msgAndArgs...)
	assert.Contains(t, r.Text, "\ncannot write \"", msgAndArgs...)
	if assert.NotNil(t, r.Code, msgAndArgs...) {
		assert.Equal(t, "FS_SANDBOX_DENIED", *r.Code, msgAndArgs...)
	}
	if assert.NotNil(t, r.ErrorName, msgAndArgs...) {
		assert.Equal(t, "FsError", *r.ErrorName, msgAndArgs...)
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	}))
	return out
}

// Escapes through the write and edit tools of the sandboxed profile: every one is denied with the
// model-facing marker and hint, and nothing appears outside the workspace.
func TestSandboxedEscapesThroughTheTools(t *testing.T) {
	var real string
	w := newSandboxWorld(t, func(base, ws, out string) {
		must := func(err error) { require.NoError(t, err) }
		must(os.Symlink(out, filepath.Join(ws, "lk")))
		must(os.Symlink(filepath.Join(out, "new"), filepath.Join(ws, "dang")))
		must(os.Symlink(filepath.Join(out, "nd"), filepath.Join(ws, "dangdir")))
		must(os.WriteFile(filepath.Join(out, "file"), []byte("outside\n"), 0o644))
		must(os.Symlink(filepath.Join(out, "file"), filepath.Join(ws, "file-link")))
		must(os.Link(filepath.Join(out, "file"), filepath.Join(ws, "hard")))
		must(os.Symlink("loop", filepath.Join(ws, "loop")))
		must(mkdir(filepath.Join(ws, ".git")))
		must(os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[core]\n"), 0o644))
		real = filepath.Join(ws, "realgit")
		must(mkdir(real))
		must(mkdir(ws + "2"))
	})
	for _, path := range []string{
		"../out/a.txt", filepath.Join(w.out, "b.txt"), "lk/c.txt", "lk/newdir/deep.txt", "file-link", "dangdir/x",
		filepath.Join(w.ws+"2", "x.txt"), "lk/../../out/d.txt",
		".git/config", "./.git/config", "a/../.git/config", ".GIT/config", ".git", ".git/hooks/pre-commit",
	} {
		requireDeniedLine(t, w.write(path, "x\n"), path)
	}
	// Edits: a file outside that was read is still denied; one never read fails on observation
	// first: the edit intent is decided before the provider's fence (docs/tool-fs.md "Observations
	// and events").
	outsideFile := filepath.Join(w.out, "file")
	r := w.call("edit", map[string]any{"file_path": outsideFile, "old_string": "outside", "new_string": "x"}, "")
	assert.Equal(t, `Error: cannot modify "`+outsideFile+`": file has not been read — read the file, then retry`, r.Text)
	require.False(t, w.call("read", map[string]any{"file_path": outsideFile}, "").IsError, "reads are never fenced")
	requireDeniedLine(t, w.call("edit", map[string]any{"file_path": outsideFile, "old_string": "outside", "new_string": "x"}, ""))
	require.False(t, w.call("read", map[string]any{"file_path": ".git/config"}, "").IsError)
	requireDeniedLine(t, w.call("edit", map[string]any{"file_path": ".git/config", "old_string": "[core]", "new_string": "[x]"}, ""))

	assert.Equal(t, []string{"file"}, entries(t, w.out), "nothing appeared outside")
	assert.Equal(t, "outside\n", readFile(t, outsideFile))
	assert.Equal(t, "[core]\n", readFile(t, filepath.Join(w.ws, ".git", "config")))
	assert.Empty(t, entries(t, w.ws+"2"))
	assert.Empty(t, entries(t, real))

	// A dangling link out is a new file for the observation policy: the guarded create refuses
	// to replace the link (docs/tool-fs.md "Errors of `write` and `edit`"), and nothing is created
	// at its target.
	r = w.write("dang", "in\n")
	require.NotNil(t, r.Code, r.Text)
	assert.Equal(t, "FS_NOT_REGULAR_FILE", *r.Code)
	fi, err := os.Lstat(filepath.Join(w.ws, "dang"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	// Allowed, but never outside: lexical ".." through a link stays inside. Refused, and never
	// outside either: a hard link to the outside file (once read) has two links, which a
	// replacement would split (docs/fs.md); a trailing slash names a directory, not t.txt.
	require.False(t, w.call("read", map[string]any{"file_path": "hard"}, "").IsError)
	r = w.write("lk/../inside.txt", "in\n")
	require.False(t, r.IsError, r.Text)
	r = w.write("hard", "in\n")
	require.NotNil(t, r.Code, r.Text)
	assert.Equal(t, "FS_IO_ERROR", *r.Code)
	assert.Contains(t, r.Text, "it has 2 hard links")
	r = w.write("t.txt/", "in\n")
	require.NotNil(t, r.Code, r.Text)
	assert.Equal(t, "FS_NOT_REGULAR_FILE", *r.Code)
	assert.Contains(t, r.Text, "so it names a directory")
	assert.Equal(t, "outside\n", readFile(t, filepath.Join(w.ws, "hard")))
	assert.Equal(t, "in\n", readFile(t, filepath.Join(w.ws, "inside.txt")))
	assert.NoFileExists(t, filepath.Join(w.ws, "t.txt"))
	assert.Equal(t, "outside\n", readFile(t, outsideFile))
	assert.Equal(t, []string{"file"}, entries(t, w.out))

	// Unresolvable paths fail without writing anything; the workspace itself is not a file.
	for _, path := range []string{"loop/x", "loop", "nul\x00byte"} {
		r := w.write(path, "x\n")
		assert.True(t, r.IsError, path)
	}
	r = w.write(".", "x\n")
	require.NotNil(t, r.Code)
	assert.Equal(t, "FS_NOT_REGULAR_FILE", *r.Code)
	assert.Equal(t, []string{"file"}, entries(t, w.out))
}

// The session cwd is the workspace root, canonicalized before lexical normalization
// (docs/sandbox.md "Modes and the policy"): a symlinked cwd writes at its target, "link/.." is the
// physical parent of the link's target, and a cwd that does not exist contains nothing and is never
// created.
func TestSandboxedSessionCwd(t *testing.T) {
	w := newSandboxWorld(t, func(base, ws, out string) {
		require.NoError(t, os.Symlink(ws, filepath.Join(base, "wslink")))
		require.NoError(t, os.MkdirAll(filepath.Join(ws, "sub", "deeper"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(ws, "sub", "deeper"), filepath.Join(ws, "inner")))
	})
	r := w.call("write", map[string]any{"file_path": "s.txt", "content": "s\n"}, filepath.Join(w.base, "wslink"))
	require.False(t, r.IsError, r.Text)
	assert.JSONEq(t, `{"path":"`+filepath.Join(w.ws, "s.txt")+`","operation":"create","before":null,"after":"s\n"}`, string(r.Value))
	requireDeniedLine(t, w.call("write", map[string]any{"file_path": "../out/x.txt", "content": "x\n"}, ""))

	r = w.call("write", map[string]any{"file_path": "p.txt", "content": "p\n"}, filepath.Join(w.ws, "inner")+"/..")
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, "p\n", readFile(t, filepath.Join(w.ws, "sub", "p.txt")), "the physical parent of the link's target")
	assert.NoFileExists(t, filepath.Join(w.ws, "p.txt"))

	gone := filepath.Join(w.base, "gone")
	requireDeniedLine(t, w.call("write", map[string]any{"file_path": "g.txt", "content": "g\n"}, gone))
	assert.NoDirExists(t, gone)
	assert.Empty(t, entries(t, w.out))
}

// The escalation fields, every refusal in the order of docs/tool-fs.md "Sandbox escalation",
// verbatim: pairing first, then strict widening (a same-mode request and a narrower one are refused
// without asking), then the approval channel. None touches the filesystem.
func TestSandboxedEscalationRefusals(t *testing.T) {
	w := newSandboxWorld(t, nil)
	target := filepath.Join(w.out, "x.txt")
	for _, c := range []struct {
		extra map[string]any
		text  string
		code  string // "": a plain argument error (no code)
	}{
		{map[string]any{"sandbox_permissions": "danger-full-access"}, "Error: invalid escalation: sandbox_permissions requires a justification", ""},
		{map[string]any{"justification": "why"}, "Error: invalid escalation: justification is only valid together with sandbox_permissions", ""},
		{map[string]any{"sandbox_permissions": "danger-full-access", "justification": " \t\n\u00a0\u3000"}, "Error: invalid justification: expected a non-empty sentence", ""},
		{map[string]any{"sandbox_permissions": "workspace-write", "justification": "why"}, `Error: sandbox escalation to "workspace-write" is not strictly wider than this call's current "workspace-write" mode`, "SANDBOX_ESCALATION_NOT_WIDER"},
		{map[string]any{"sandbox_permissions": "danger-full-access", "justification": "why"}, unavailableText, "SANDBOX_ESCALATION_UNAVAILABLE"},
	} {
		for _, tool := range []string{"write", "edit"} {
			args := map[string]any{"file_path": target, "content": "x\n"}
			if tool == "edit" {
				args = map[string]any{"file_path": target, "old_string": "a", "new_string": "b"}
			}
			for k, v := range c.extra {
				args[k] = v
			}
			r := w.call(tool, args, "")
			assert.True(t, r.IsError)
			assert.Equal(t, c.text, r.Text, "%s %v", tool, c.extra)
			if c.code == "" {
				assert.Nil(t, r.Code, "argument errors carry no code")
			} else if assert.NotNil(t, r.Code) {
				assert.Equal(t, c.code, *r.Code, "refused escalations carry their code (docs/sandbox.md)")
			}
		}
	}
	r := w.call("write", map[string]any{"file_path": target, "content": "x\n", "sandbox_permissions": "read-only", "justification": "why"}, "")
	require.NotNil(t, r.Code)
	assert.Equal(t, "INVALID_ARGS", *r.Code, "read-only is not an escalation target")
	assert.Empty(t, entries(t, w.out))
}
