package spill_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/spill"
)

// writeRecords writes n records "\nrecord <i> <pad>" to w.
func writeRecords(w *spill.Writer, n int, pad string) {
	for i := range n {
		w.WriteString("\nrecord ")
		w.WriteString(strconv.Itoa(i))
		w.WriteByte(' ')
		w.Write([]byte(pad))
		w.EndRecord()
	}
}

func TestCommitWritesTheHeaderInPlace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s := spill.New(dir, spill.Limits{MaxFileBytes: 1 << 20, QuotaBytes: 1 << 20})
	w, err := s.Create(20, 0)
	require.NoError(t, err)
	writeRecords(w, 3, "x")
	tmps, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	require.NoError(t, err)
	require.Len(t, tmps, 1)
	before, err := os.Stat(tmps[0])
	require.NoError(t, err)
	path, err := w.Commit("Found 3 matches", "unused")
	require.NoError(t, err)
	after, err := os.Stat(path)
	require.NoError(t, err)
	require.True(t, os.SameFile(before, after), "the file written is the file published: no copy")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "Found 3 matches     \nrecord 0 x\nrecord 1 x\nrecord 2 x", string(b))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1, "no temporary file is left")
	require.Equal(t, 3, w.Records())
	require.False(t, w.Cut())

	w, err = s.Create(4, 0)
	require.NoError(t, err)
	_, err = w.Commit("too long", "")
	require.Error(t, err)
	ents, err = os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1, "a failed commit leaves nothing")
}

// TestFileCap writes 8 MiB of records into a store capped at 1 MiB a file: the file keeps the
// whole records that fit beside its header and note, then the note.
func TestFileCap(t *testing.T) {
	const limit = 1 << 20
	s := spill.New(filepath.Join(t.TempDir(), "spill"), spill.Limits{MaxFileBytes: limit, QuotaBytes: 4 * limit})
	note := "\n\n(cut)"
	w, err := s.Create(10, len(note))
	require.NoError(t, err)
	pad := strings.Repeat("p", 1000)
	writeRecords(w, 8<<10, pad)
	require.True(t, w.Cut())
	kept := w.Records()
	path, err := w.Commit("header", note)
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.LessOrEqual(t, len(b), limit)
	require.Greater(t, len(b), limit-1100, "all the records that fit are kept")
	body, ok := strings.CutSuffix(string(b), note)
	require.True(t, ok)
	lines := strings.Split(strings.TrimPrefix(body, "header    \n"), "\n")
	require.Len(t, lines, kept)
	require.Equal(t, "record "+strconv.Itoa(kept-1)+" "+pad, lines[kept-1], "the last record is whole")
}

// TestQuota: publishing a file removes the oldest others while the directory is over its quota.
func TestQuota(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s := spill.New(dir, spill.Limits{MaxFileBytes: 4000, QuotaBytes: 10000})
	var paths []string
	base := time.Now().Add(-time.Hour)
	for i := range 5 {
		w, err := s.Create(0, 0)
		require.NoError(t, err)
		w.WriteString(strings.Repeat("z", 3000))
		w.EndRecord()
		p, err := w.Commit("", "")
		require.NoError(t, err)
		ts := base.Add(time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(p, ts, ts))
		paths = append(paths, p)
	}
	for i, p := range paths {
		if i < 2 {
			require.NoFileExists(t, p, "oldest first")
		} else {
			require.FileExists(t, p)
		}
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s := spill.New(dir, spill.Limits{MaxFileBytes: 100, QuotaBytes: 100})
	w, err := s.Create(5, 5)
	require.NoError(t, err)
	writeRecords(w, 10, "y")
	w.Abort()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, ents)
}

// TestProcessDirsAreSwept: a process's store sweeps the stale files of the other processes'
// directories beside its own (and of the parent, where an earlier version saved them), and removes
// such a directory once it is empty and as old; fresh files and other directories stay.
func TestProcessDirsAreSwept(t *testing.T) {
	state := t.TempDir()
	lookup := func(k string) (string, bool) {
		if k == "XDG_STATE_HOME" {
			return state, true
		}
		return "", false
	}
	own, err := spill.ProcessDir(lookup)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(own)
	if again, _ := spill.ProcessDir(lookup); again != own {
		t.Fatalf("ProcessDir: %s, then %s", own, again)
	}
	past := time.Now().Add(-spill.MaxAge - time.Minute)
	stale := func(p string) {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	gone := filepath.Join(base, "p-00000000000000aa")
	busy := filepath.Join(base, "p-00000000000000bb")
	keep := filepath.Join(base, "not-a-process")
	write(filepath.Join(gone, "old.txt"))
	write(filepath.Join(busy, "old.txt"))
	write(filepath.Join(busy, "fresh.txt"))
	write(filepath.Join(keep, "old.txt"))
	write(filepath.Join(base, "legacy.txt"))
	write(filepath.Join(own, "mine.txt"))
	for _, p := range []string{filepath.Join(gone, "old.txt"), filepath.Join(busy, "old.txt"), filepath.Join(keep, "old.txt"), filepath.Join(base, "legacy.txt"), gone, busy, keep} {
		stale(p)
	}
	if err := spill.New(own, spill.Limits{MaxFileBytes: 1 << 20, QuotaBytes: 1 << 20}).Sweep(time.Now()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		gone: false, filepath.Join(busy, "old.txt"): false, filepath.Join(busy, "fresh.txt"): true, busy: true,
		filepath.Join(keep, "old.txt"): true, filepath.Join(base, "legacy.txt"): false, filepath.Join(own, "mine.txt"): true,
	} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
}
