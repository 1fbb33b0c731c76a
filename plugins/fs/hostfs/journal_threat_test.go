package hostfs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// plantJournal writes, into the journal directory of the state directory state, a journal in
// the unsigned format that deletes victim and removes the directory doomed, as a user other than
// Cordon could.
func plantJournal(t *testing.T, state, victim, doomed string) string {
	t.Helper()
	var st unix.Stat_t
	require.NoError(t, unix.Lstat(victim, &st))
	plan, err := json.Marshal(map[string]any{"ops": []map[string]any{
		{"op": "delete", "target": victim, "pre": map[string]any{"dev": st.Dev, "ino": st.Ino, "ctime": st.Ctim.Nano()}},
		{"op": "put", "target": filepath.Join(doomed, "x"), "staged": filepath.Join(doomed, "x"), "dir": doomed},
	}})
	require.NoError(t, err)
	dir := filepath.Join(state, "cordon", "txn")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	path := filepath.Join(dir, "1.planted.journal")
	require.NoError(t, os.WriteFile(path, append(plan, []byte("\n\"publish\"\n")...), 0o600))
	return path
}

// outside makes a file and a directory outside the workspace for a planted journal to aim at.
func outside(t *testing.T) (victim, doomed string) {
	t.Helper()
	o := t.TempDir()
	victim, doomed = filepath.Join(o, "victim.txt"), filepath.Join(o, "tree")
	writeFile(t, victim, "keep\n")
	writeFile(t, filepath.Join(doomed, "inner.txt"), "keep\n")
	return victim, doomed
}

// requireSetAside checks that the planted journal is no longer where recovery reads and that a
// copy of it was set aside beside it.
func requireSetAside(t *testing.T, journal string) {
	t.Helper()
	_, err := os.Lstat(journal)
	require.ErrorIs(t, err, os.ErrNotExist)
	entries, err := os.ReadDir(filepath.Dir(journal))
	require.NoError(t, err)
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), filepath.Base(journal)) && strings.HasSuffix(e.Name(), ".refused") {
			n++
		}
	}
	require.Equal(t, 1, n, "one journal set aside")
}

// TestStartDoesNotRunAPlantedJournal: a journal Cordon did not write, found at the start, is set
// aside; nothing it names is touched (docs/journal-threat-model.md).
func TestStartDoesNotRunAPlantedJournal(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	victim, doomed := outside(t)
	journal := plantJournal(t, state, victim, doomed)
	_, _ = newProvider(t)
	require.FileExists(t, victim)
	require.FileExists(t, filepath.Join(doomed, "inner.txt"))
	requireSetAside(t, journal)
}

// TestStartDoesNotRunAJournalOfAnotherUser: as root, a journal owned by uid 65534 is not run.
func TestStartDoesNotRunAJournalOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another uid")
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	victim, doomed := outside(t)
	journal := plantJournal(t, state, victim, doomed)
	require.NoError(t, os.Chown(journal, 65534, 65534))
	_, _ = newProvider(t)
	require.FileExists(t, victim)
	require.FileExists(t, filepath.Join(doomed, "inner.txt"))
	requireSetAside(t, journal)
}

// TestStartRefusesAStateDirectoryOfAnotherUser: with cordon/txn owned by another uid, no journal
// in it is run and none is written there; writes still work.
func TestStartRefusesAStateDirectoryOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory to another uid")
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	victim, doomed := outside(t)
	journal := plantJournal(t, state, victim, doomed)
	require.NoError(t, os.Chown(filepath.Dir(journal), 65534, 65534))
	_, _ = newProvider(t)
	require.FileExists(t, victim)
	require.FileExists(t, filepath.Join(doomed, "inner.txt"))
	require.FileExists(t, journal, "left where it is: the directory is not Cordon's")
}

// TestStartDoesNotBlockOnAFIFOJournal: a FIFO named like a journal is set aside without
// blocking the start.
func TestStartDoesNotBlockOnAFIFOJournal(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "cordon", "txn")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	fifo := filepath.Join(dir, "1.fifo.journal")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	done := make(chan error, 1)
	go func() {
		_, err := hostfs.New(hostfs.Config{Cwd: t.TempDir()}, nil)
		done <- err
	}()
	require.NoError(t, <-done) // blocked for good when the FIFO is opened for reading
	requireSetAside(t, fifo)
}
