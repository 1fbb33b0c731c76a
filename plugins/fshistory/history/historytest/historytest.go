// Package historytest holds test helpers for code that exercises the history store's files.
//
// CorruptRecordsRoot damages a closed store the way a bad disk would, on a page every operation
// reads:
//
//	st.Close()
//	historytest.CorruptRecordsRoot(t, dir)
//
// HoldStore holds a store's database as another process would, until the test ends.
//
// The helpers take a testing.TB and fail the test through it; none of them is safe to use outside a
// test.
package historytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// CorruptRecordsRoot fills the page of the records bucket's root in dir's history.db (after the
// page header) with garbage, on which bbolt panics. The store must be closed: a holder's map may
// not see a write made in the clock tick of its own last commit, and another page may be free.
func CorruptRecordsRoot(t testing.TB, dir string) {
	t.Helper()
	path := filepath.Join(dir, "history.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	var root int64
	require.NoError(t, db.View(func(tx *bolt.Tx) error { root = int64(tx.Bucket([]byte("records")).Root()); return nil }))
	require.NoError(t, db.Close())
	require.Positive(t, root)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteAt([]byte(strings.Repeat("\xA5", 4096-16)), root*4096+16)
	require.NoError(t, err)
}

// HoldStore opens dir's history.db and holds its lock until the test ends, as another program
// would; it rings the bell first, as another Cordon process would, so that this process's own
// idle hold lets go.
func HoldStore(t testing.TB, dir string) {
	t.Helper()
	statedir.RingFIFO(filepath.Join(dir, "history.db.bell"))
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: 5 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
}
