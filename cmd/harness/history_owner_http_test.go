package main_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/history.md "Sessions", over HTTP: an authenticated principal (a --token-file name) is one
// history identity over all its sessions, so its next session takes back its change, and another
// principal's undo cannot; without tokens each session is its own.
func TestHTTPUndoTakesBackOnlyThePrincipalsOwnChanges(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	p := filepath.Join(dir, "mine.txt")
	const alice, bob = "alice-token-0123456789", "bob-token-0123456789ab"
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", dir, "--token-file", writeTokens(t, "alice:"+alice+"\nbob:"+bob+"\n"))

	first := s.connect(t, "2025-11-25", alice, nil)
	res := call(t, first, "write", map[string]any{"file_path": "mine.txt", "content": "mine\n"})
	require.False(t, res.IsError, text(res))

	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		other := s.connect(t, version, bob, nil)
		res = call(t, other, "undo", map[string]any{"file_path": "mine.txt"})
		assert.True(t, res.IsError, "another principal's undo took back alice's change (%s): %s", version, text(res))
		assert.Equal(t, `Error: cannot undo "`+p+`": the history holds no change by Cordon to it in this session`, text(res))
	}
	assert.Equal(t, "mine\n", readFile(t, p))

	list := listHistory(t, dir)
	require.Len(t, list, 1)
	assert.Equal(t, "mcp-principal-alice", list[0].Session)

	again := s.connect(t, "2025-11-25", alice, nil) // a new session of the same principal
	res = call(t, again, "undo", map[string]any{"file_path": "mine.txt"})
	require.False(t, res.IsError, text(res))
	assert.NoFileExists(t, p)
}

// Without --token-file every HTTP session is its own history identity: another session cannot take
// back this one's change.
func TestHTTPUndoWithoutTokensIsPerSession(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	p := filepath.Join(dir, "mine.txt")
	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", dir)

	mine := s.connect(t, "2025-11-25", "", nil)
	res := call(t, mine, "write", map[string]any{"file_path": "mine.txt", "content": "mine\n"})
	require.False(t, res.IsError, text(res))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		other := s.connect(t, version, "", nil)
		res = call(t, other, "undo", map[string]any{"file_path": "mine.txt"})
		assert.True(t, res.IsError, "another session's undo took back this one's change (%s): %s", version, text(res))
	}
	assert.Equal(t, "mine\n", readFile(t, p))
	list := listHistory(t, dir)
	require.Len(t, list, 1)
	assert.Regexp(t, `^mcp-[0-9A-Za-z]+$`, list[0].Session)

	res = call(t, mine, "undo", map[string]any{"file_path": "mine.txt"})
	require.False(t, res.IsError, text(res))
	assert.NoFileExists(t, p)
}
