package history_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/cordon-dev/cordon/internal/statedir"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/fshistory/history/historytest"
)

var roomy = history.Limits{MaxBytes: 1 << 30, MaxAge: time.Hour, MaxContentBytes: 1 << 20}

// damagedAside lists what the store set aside in dir.
func damagedAside(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "history.db.*.damaged"))
	require.NoError(t, err)
	return m
}

// TestADamagedDatabaseIsSetAside: a corrupt page (bbolt panics on it) fails the operation that
// meets it with ErrDamaged, never a panic; the file is set aside and the store starts empty
// (docs/history.md "Damage").
func TestADamagedDatabaseIsSetAside(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	for i := range 300 {
		add(t, st, fmt.Sprintf("/w/f%03d", i), []byte(fmt.Sprintf("content %d", i)), time.Now())
	}
	st.Close()
	historytest.CorruptRecordsRoot(t, dir)
	var err error
	require.NotPanics(t, func() { _, err = st.List(history.Match{}, nil) })
	require.ErrorIs(t, err, history.ErrDamaged)
	var d *history.Damaged
	require.True(t, errors.As(err, &d))
	require.Equal(t, damagedAside(t, dir), []string{d.Aside})
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Empty(t, recs, "the store starts empty")
	add(t, st, "/w/after", []byte("after"), time.Now())
	require.NoError(t, st.Sweep())
}

// TestAFIFODatabaseIsRefusedWithoutBlocking: a FIFO in place of history.db fails the operation
// at once (it would block every write for good) and is set aside.
func TestAFIFODatabaseIsRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "history.db"), 0o600))
	_, err := st.List(history.Match{}, nil) // a read-only open: O_RDONLY on a FIFO blocked for good before
	require.ErrorIs(t, err, history.ErrDamaged)
	require.ErrorIs(t, err, statedir.ErrRefused)
	require.Len(t, damagedAside(t, dir), 1)
	add(t, st, "/w/b", []byte("b"), time.Now())
}

// TestASymlinkDatabaseIsRefused: history.db as a symlink (to a file elsewhere) is not followed.
func TestASymlinkDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	elsewhere := filepath.Join(t.TempDir(), "target")
	require.NoError(t, os.WriteFile(elsewhere, nil, 0o600))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(dir, "history.db")))
	_, err := st.List(history.Match{}, nil)
	require.ErrorIs(t, err, statedir.ErrRefused)
	fi, err := os.Stat(elsewhere)
	require.NoError(t, err)
	require.Zero(t, fi.Size(), "the link's target is untouched")
}

// TestOpenRefusesADirectoryAnotherUserCanWrite: the store's directory must be this user's and
// not writable by others.
func TestOpenRefusesADirectoryAnotherUserCanWrite(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := history.Open(dir, roomy, 0)
	require.ErrorIs(t, err, statedir.ErrRefused)
	if os.Geteuid() == 0 {
		require.NoError(t, os.Chmod(dir, 0o700))
		require.NoError(t, os.Chown(dir, 65534, 65534))
		_, err = history.Open(dir, roomy, 0)
		require.ErrorIs(t, err, statedir.ErrRefused)
	}
}

// TestRecordsWithoutContentCountAgainstMaxBytes: creations keep no content, yet their records
// count: 400 of them under a 16 KiB bound leave records of 16 KiB at most.
func TestRecordsWithoutContentCountAgainstMaxBytes(t *testing.T) {
	const maxBytes = 16 << 10
	st := open(t, t.TempDir(), history.Limits{MaxBytes: maxBytes, MaxAge: time.Hour, MaxContentBytes: maxBytes})
	for i := range 400 {
		p := fmt.Sprintf("/w/created-%04d.txt", i)
		_, err := st.Add(history.Record{Time: time.Now(), Path: p, Key: p, Display: p, Verb: "write"}, nil)
		require.NoError(t, err)
	}
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Less(t, len(recs), 400)
	total := 0
	for _, r := range recs {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		total += len(b)
	}
	require.LessOrEqual(t, total, maxBytes+len(recs)) // within the bound (a record's JSON may differ by a byte)
	require.Equal(t, "c400", recs[0].ID, "the newest stays")
}

// TestWaitsOfOneCallShareOneBudget: under a budget, the operations of one call wait for a held
// store at most the budget together (N files of a patch do not wait N lock timeouts).
func TestWaitsOfOneCallShareOneBudget(t *testing.T) {
	dir := t.TempDir()
	base, err := history.Open(dir, roomy, time.Second)
	require.NoError(t, err)
	add(t, base, "/w/seed", []byte("seed"), time.Now())
	historytest.HoldStore(t, dir)
	b := history.NewLockBudget(time.Second)
	st := history.Within(base, b)
	start := time.Now()
	for i := range 5 {
		p := fmt.Sprintf("/w/f%d", i)
		_, err := st.Add(history.Record{Time: time.Now(), Path: p, Key: p, Verb: "write"}, nil)
		require.ErrorIs(t, err, bolterrors.ErrTimeout)
	}
	// Five operations with a 1 s lock timeout each waited 5 s before; the budget holds them to
	// one timeout in all (the bound checked is the structure, 3 s leaves the machine its noise).
	require.Less(t, time.Since(start), 3*time.Second)
}
