package main_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// historyEnv gives a test its own state directory (so its history is its own) in the environment
// of the harness processes it runs.
func historyEnv(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
}

type historyEntry struct {
	ID       string   `json:"id"`
	Path     string   `json:"path"`
	Tool     string   `json:"tool"`
	Session  string   `json:"session"`
	Size     int64    `json:"size"`
	Existed  bool     `json:"existed"`
	Undoes   string   `json:"undoes"`
	UndoneBy string   `json:"undoneBy"`
	MadeDirs []string `json:"madeDirs"`
}

func listHistory(t *testing.T, dir string) []historyEntry {
	t.Helper()
	out, stderr, code := runHarness(t, "", "history", "--json", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	var list []historyEntry
	require.NoError(t, json.Unmarshal([]byte(out), &list), out)
	return list
}

// harness run edits and writes and exits; later processes list the changes and undo them byte
// for byte, step by step, with no server running.
func TestHistoryAndUndoAfterTheProcessEnded(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	p := filepath.Join(dir, "a.txt")
	original := "\xEF\xBB\xBFone\r\ntwo\r\n"
	writeFile(t, p, original)
	in := `{"id":1,"tool":"read","args":{"file_path":"a.txt"}}
{"id":2,"tool":"edit","args":{"file_path":"a.txt","old_string":"two","new_string":"TWO"}}
{"id":3,"tool":"read","args":{"file_path":"a.txt"}}
{"id":4,"tool":"write","args":{"file_path":"a.txt","content":"three\n"}}
{"id":5,"tool":"write","args":{"file_path":"made/new.txt","content":"created\n"}}
`
	out, stderr, code := runHarness(t, in, "run", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, out, `"isError":true`, out)
	edited := "\xEF\xBB\xBFone\r\nTWO\r\n"

	list := listHistory(t, dir)
	require.Len(t, list, 3)
	assert.Equal(t, []string{"write", "write", "edit"}, []string{list[0].Tool, list[1].Tool, list[2].Tool})
	assert.Equal(t, filepath.Join(dir, "made/new.txt"), list[0].Path)
	assert.False(t, list[0].Existed)
	assert.Equal(t, []string{filepath.Join(dir, "made")}, list[0].MadeDirs)
	assert.Equal(t, "default", list[2].Session)
	assert.Equal(t, int64(len(original)), list[2].Size)

	text, stderr, _ := runHarness(t, "", "history", "--cwd", dir, "--log-level", "error")
	assert.Regexp(t, `(?m)^TIME\s+PATH\s+TOOL\s+SESSION\s+SIZE\s+CHANGE\s+NOTE$`, text, stderr)
	assert.Regexp(t, `(?m)^\S+Z\s+`+regexp.QuoteMeta(p)+`\s+edit\s+default\s+`+itoa(len(original))+`\s+c1\s*$`, text)

	// harness undo prints the first line alone, and removes the folder the creation made all the same.
	out, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", "made/new.txt")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^Restored "[^"]*made/new\.txt" to its state before the write at \S+Z: it did not exist, so it was removed\.\n$`, out)
	assert.NoDirExists(t, filepath.Join(dir, "made"))

	out, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", "a.txt")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^Restored "`+regexp.QuoteMeta(p)+`" to its state before the write at \S+Z\.\n$`, out)
	assert.Equal(t, edited, readFile(t, p))

	out, stderr, code = runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", "c1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "to its state before the edit at")
	assert.Equal(t, original, readFile(t, p))

	list = listHistory(t, dir)
	require.Len(t, list, 6)
	assert.Equal(t, "c1", list[0].Undoes)
	assert.Equal(t, "harness undo", list[0].Tool)
	assert.Equal(t, list[0].ID, list[5].UndoneBy)
}

// An undo over a later change made outside Cordon is refused and changes nothing; --force
// restores with a warning.
func TestUndoRefusedOverAnExternalChange(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	p := filepath.Join(dir, "a.txt")
	writeFile(t, p, "one\n")
	in := `{"id":1,"tool":"read","args":{"file_path":"a.txt"}}
{"id":2,"tool":"edit","args":{"file_path":"a.txt","old_string":"one","new_string":"two"}}
`
	_, stderr, code := runHarness(t, in, "run", "--cwd", dir, "--log-level", "error")
	require.Equal(t, 0, code, stderr)
	writeFile(t, p, "theirs\n")

	out, stderr, code := runHarness(t, "", "undo", "--any-session", "--cwd", dir, "--log-level", "error", "a.txt")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Regexp(t, `^harness: cannot undo "`+regexp.QuoteMeta(p)+`": file changed since Cordon's last change — it was changed outside Cordon after the edit at \S+Z \(change c1\); nothing was restored\n$`, stderr)
	assert.Equal(t, "theirs\n", readFile(t, p))

	out, stderr, code = runHarness(t, "", "undo", "--any-session", "--force", "--cwd", dir, "--log-level", "error", "a.txt")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stderr, "warning: --force"), stderr)
	assert.Contains(t, out, "Restored")
	assert.Equal(t, "one\n", readFile(t, p))
	list := listHistory(t, dir)
	require.Len(t, list, 2)
	assert.Equal(t, int64(len("theirs\n")), list[0].Size, "the content forced over is kept")
}

func itoa(n int) string { return strconv.Itoa(n) }

// Without fs-history in the composition, history and undo say so.
func TestHistoryWithoutThePlugin(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	for _, args := range [][]string{{"history"}, {"undo"}} {
		args = append(args, "--config", bareConfig(t, dir), "--log-level", "error")
		if args[0] == "undo" {
			args = append(args, "--any-session", "a.txt")
		}
		out, stderr, code := runHarness(t, "", args...)
		assert.Equal(t, 1, code, args)
		assert.Empty(t, out)
		assert.Equal(t, "harness: "+filepath.Join(dir, "bare.yaml")+": the composition has no fs-history plugin, so there is no history\n", stderr, args)
	}
}
