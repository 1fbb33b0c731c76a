package main_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Under 2026-07-28 over HTTP with --token-file, what a principal read before a restart still
// authorizes its write after it, while the file's version matches; an unauthenticated server keeps
// no observation across the restart, and a change since the read still refuses the write.
func TestPrincipalObservationsOutliveARestart(t *testing.T) {
	historyEnv(t)
	dir := realTemp(t)
	file := filepath.Join(dir, "notes.txt")
	writeFile(t, file, "hello\n")
	other := filepath.Join(dir, "other.txt")
	writeFile(t, other, "one\n")
	tokens := writeTokens(t, "alice:alice-token-0123456789abcdef\n")
	const token = "alice-token-0123456789abcdef"

	s := startHTTPServe(t, "127.0.0.1:0", "--cwd", dir, "--token-file", tokens)
	cs := s.connect(t, "2026-07-28", token, nil)
	require.False(t, call(t, cs, "read", map[string]any{"file_path": "notes.txt"}).IsError)
	require.False(t, call(t, cs, "read", map[string]any{"file_path": "other.txt"}).IsError)
	s.signal(t, syscall.SIGTERM)
	require.Equal(t, 0, s.wait(t, 20*time.Second))

	writeFile(t, other, "changed by someone else\n")
	s = startHTTPServe(t, "127.0.0.1:0", "--cwd", dir, "--token-file", tokens)
	cs = s.connect(t, "2026-07-28", token, nil)
	res := call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "after the restart\n"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, "after the restart\n", readFile(t, file))
	res = call(t, cs, "write", map[string]any{"file_path": "other.txt", "content": "mine\n"})
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "re-read the file, then retry")
	assert.Equal(t, "changed by someone else\n", readFile(t, other))

	// Without authentication the sessionless requests share one owner per process only.
	s.signal(t, syscall.SIGTERM)
	require.Equal(t, 0, s.wait(t, 20*time.Second))
	s = startHTTPServe(t, "127.0.0.1:0", "--cwd", dir)
	cs = s.connect(t, "2026-07-28", "", nil)
	require.False(t, call(t, cs, "read", map[string]any{"file_path": "notes.txt"}).IsError)
	s.signal(t, syscall.SIGTERM)
	require.Equal(t, 0, s.wait(t, 20*time.Second))
	s = startHTTPServe(t, "127.0.0.1:0", "--cwd", dir)
	cs = s.connect(t, "2026-07-28", "", nil)
	res = call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "unread\n"})
	assert.True(t, res.IsError)
	assert.Equal(t, `Error: cannot modify "`+file+`": file has not been read — read the file, then retry`, text(res))
}
