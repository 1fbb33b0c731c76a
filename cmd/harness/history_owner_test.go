package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/history.md "Sessions": every stdio serve is a history session of its own, so another
// server (another agent's, or this one's next run) cannot take back a change as its own; the CLI
// takes back a change only of the session it names, or of any with --any-session.
func TestUndoTakesBackOnlyTheCallersOwnChanges(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	p := filepath.Join(dir, "mine.txt")
	mine, _ := serve(t, "--cwd", dir)
	res := call(t, mine, "write", map[string]any{"file_path": "mine.txt", "content": "mine\n"})
	require.False(t, res.IsError, text(res))

	other, _ := serve(t, "--cwd", dir)
	res = call(t, other, "undo", map[string]any{"file_path": "mine.txt"})
	assert.True(t, res.IsError, "another server's undo took back this one's change: %s", text(res))
	assert.Equal(t, `Error: cannot undo "`+p+`": the history holds no change by Cordon to it in this session`, text(res))
	assert.Equal(t, "mine\n", readFile(t, p))

	list := listHistory(t, dir)
	require.Len(t, list, 1)
	assert.Regexp(t, `^mcp-stdio-[0-9a-f]{16}$`, list[0].Session)

	_, stderr, code := runHarness(t, "", "undo", "--cwd", dir, "--log-level", "error", "mine.txt")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "harness: usage: undo: say whose change to take back: --session ID (the SESSION column of history) or --any-session")
	_, stderr, code = runHarness(t, "", "undo", "--session", "someone-else", "--cwd", dir, "--log-level", "error", list[0].ID)
	assert.Equal(t, 1, code)
	assert.Equal(t, `harness: cannot undo change "`+list[0].ID+`": it was made in another session ("`+list[0].Session+`")`+"\n", stderr)
	assert.Equal(t, "mine\n", readFile(t, p))

	res = call(t, mine, "undo", map[string]any{"file_path": "mine.txt"})
	require.False(t, res.IsError, text(res))
	assert.NoFileExists(t, p)
}

// docs/history.md "harness history and harness undo": the file names a model chose are printed
// escaped (internal/termtext): no ESC, BEL, CR or LF of theirs reaches the terminal.
func TestHistoryAndUndoPrintNamesEscaped(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	name := "x\x1b]0;pwned\x07\r\n2026-01-01T00:00:00Z  forged.txt"
	in := `{"id":1,"tool":"write","args":{"file_path":"x\u001b]0;pwned\u0007\r\n2026-01-01T00:00:00Z  forged.txt","content":"c\n"}}` + "\n"
	out, stderr, code := runHarness(t, in, "run", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, out, `"isError":true`, out)
	require.FileExists(t, filepath.Join(dir, name))
	escaped := regexp.QuoteMeta(filepath.Join(dir, `x\x1b]0;pwned\x07\r\n2026-01-01T00:00:00Z  forged.txt`))

	table, stderr, code := runHarness(t, "", "history", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	assert.False(t, strings.ContainsAny(table, "\x1b\x07\r"), "%q", table)
	assert.Equal(t, 2, strings.Count(table, "\n"), "one header and one row: %q", table)
	assert.Regexp(t, `(?m)^\S+Z\s+`+escaped+`\s+write\s`, table)

	out, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", "c1")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^Restored "`+escaped+`" to its state before the write at \S+Z: it did not exist, so it was removed\.\n$`, out)
	_, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", name)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `^harness: cannot undo "`+escaped+`": the history holds no change by Cordon to it\n$`, stderr)
}

// docs/history.md "harness history and harness undo": undo --force acts on the file Cordon changed,
// never where a symlink planted since leads: neither the overwrite of an edited file nor the
// removal of a created one reaches outside the workspace. A change outside --cwd is not undone.
func TestUndoForceFollowsNoSymlinkPlantedSince(t *testing.T) {
	historyEnv(t)
	dir, outside := realTemp(t), realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
	in := `{"id":1,"tool":"read","args":{"file_path":"a.txt"}}
{"id":2,"tool":"edit","args":{"file_path":"a.txt","old_string":"one","new_string":"two"}}
{"id":3,"tool":"write","args":{"file_path":"new.txt","content":"created\n"}}
`
	out, stderr, code := runHarness(t, in, "run", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, out, `"isError":true`, out)
	for name, victim := range map[string]string{"a.txt": "victim.txt", "new.txt": "other.txt"} {
		writeFile(t, filepath.Join(outside, victim), "precious\n")
		require.NoError(t, os.Remove(filepath.Join(dir, name)))
		require.NoError(t, os.Symlink(filepath.Join(outside, victim), filepath.Join(dir, name)))
	}
	for id, name := range map[string]string{"c1": "a.txt", "c2": "new.txt"} {
		_, stderr, code = runHarness(t, "", "undo", "--any-session", "--force", "--cwd", dir, "--log-level", "error", id)
		assert.Equal(t, 1, code, stderr)
		assert.Contains(t, stderr, `harness: cannot undo "`+filepath.Join(dir, name)+`": it now leads to "`+outside+`/`)
	}
	assert.Equal(t, "precious\n", readFile(t, filepath.Join(outside, "victim.txt")), "overwritten through a planted symlink")
	assert.Equal(t, "precious\n", readFile(t, filepath.Join(outside, "other.txt")), "removed through a planted symlink")

	elsewhere := realTemp(t)
	_, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", elsewhere, "--log-level", "error", "c1")
	assert.Equal(t, 1, code)
	assert.Equal(t, `harness: cannot undo "`+filepath.Join(dir, "a.txt")+`": it is not under the working directory "`+elsewhere+`"`+"\n", stderr)
}
