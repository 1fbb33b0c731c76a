package history_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// holdChildEnv names the store directory of TestHoldChild.
const holdChildEnv = "HISTORY_HOLD_CHILD"

// TestHoldChild is the child of TestABusyHolderLetsAnotherProcessIn: one Add, waiting at most 5 s.
func TestHoldChild(t *testing.T) {
	dir, ok := os.LookupEnv(holdChildEnv)
	if !ok {
		t.Skip("child of TestABusyHolderLetsAnotherProcessIn")
	}
	st, err := history.Open(dir, roomy, 5*time.Second)
	require.NoError(t, err)
	add(t, st, "/w/child", []byte("child"), time.Now())
}

// TestABusyHolderLetsAnotherProcessIn: a process keeps the database open between its operations,
// yet another process's operation gets in while the first one records without a pause: the
// waiter announces itself and the holder lets go after its operation (docs/history.md "The store").
func TestABusyHolderLetsAnotherProcessIn(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	var stop atomic.Bool
	done := make(chan int)
	go func() {
		n := 0
		for ; !stop.Load(); n++ {
			if _, err := st.Add(history.Record{Time: time.Now(), Path: "/w/busy", Key: "/w/busy", Verb: "write"}, nil); err != nil {
				t.Error(err)
				break
			}
		}
		done <- n
	}()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	stop.Store(true)
	n := <-done
	require.NoError(t, err, "%s", out)
	t.Logf("the holder recorded %d changes meanwhile", n)
	recs, err := st.List(history.Match{}, func(r *history.Record) bool { return r.Path == "/w/child" })
	require.NoError(t, err)
	assert.Len(t, recs, 1)
}

// TestAnIdleHolderLetsGo: after HoldIdle without an operation the database is closed, so an open
// that neither announces itself nor rings (another program, an older Cordon) gets it.
func TestAnIdleHolderLetsGo(t *testing.T) {
	defer func(d time.Duration) { history.HoldIdle = d }(history.HoldIdle)
	history.HoldIdle = 50 * time.Millisecond
	dir := t.TempDir()
	add(t, open(t, dir, roomy), "/w/a", []byte("a"), time.Now())
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: history.HoldIdle + 5*time.Second})
	require.NoError(t, err)
	require.NoError(t, db.Close())
}

// TestAnIdleHolderAnswersTheBell: a process that waits for the database rings the holder's bell,
// and the holder, idle for far longer than the waiter's lock timeout, lets go at once with what it
// deferred committed (docs/history.md "The store").
func TestAnIdleHolderAnswersTheBell(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "write", Pending: true, PID: os.Getpid()}, nil)
	require.NoError(t, err)
	require.NoError(t, st.Complete(r.ID, "v2", false))
	add(t, st, "/w/b", []byte("b"), time.Now()) // journaled: the hold's second
	start := time.Now()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("the child recorded its change in %s", time.Since(start).Round(time.Millisecond))
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	var paths []string
	for _, r := range recs {
		paths = append(paths, r.Path)
		if r.Path == "/w/a" {
			assert.False(t, r.Pending, "the completion deferred before the let-go")
		}
	}
	assert.Equal(t, []string{"/w/child", "/w/b", "/w/a"}, paths)
}

// TestAHolderAskedForTheStoreHoldsItBriefly: once another process asked for the database (two
// agents at work on one state directory), the holder's next holds last HoldIdleWithoutBell, so
// the two take turns as they did before the bell, without ringing for each change.
func TestAHolderAskedForTheStoreHoldsItBriefly(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	add(t, st, "/w/a", []byte("a"), time.Now())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	add(t, st, "/w/b", []byte("b"), time.Now())
	// An open that does not ring: it gets the database once the brief hold ends.
	start := time.Now()
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: history.HoldIdleWithoutBell + 5*time.Second})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	t.Logf("the database was free after %s", time.Since(start).Round(time.Millisecond))
}

// TestAHolderWithoutItsBellLetsGoSoon: where the bell cannot be listened to (here a regular file
// in its place, refused), the holder keeps the database HoldIdleWithoutBell, not HoldIdle.
func TestAHolderWithoutItsBellLetsGoSoon(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "history.db.bell"), nil, 0o600))
	add(t, open(t, dir, roomy), "/w/a", []byte("a"), time.Now())
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: history.HoldIdleWithoutBell + 5*time.Second})
	require.NoError(t, err)
	require.NoError(t, db.Close())
}

// TestCompletionsAreCommittedBeforeReadsAndAtClose: a Complete deferred while the database is held
// is seen by this process's next read, and is in the file once the store is closed.
func TestCompletionsAreCommittedBeforeReadsAndAtClose(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "write", Pending: true, PID: os.Getpid()}, bytes.NewReader([]byte("a")))
	require.NoError(t, err)
	require.NoError(t, st.Complete(r.ID, "v2", false))
	got, err := st.Get(r.ID)
	require.NoError(t, err)
	assert.False(t, got.Pending)
	assert.Equal(t, "v2", got.VersionAfter)

	r, err = st.Add(history.Record{Time: time.Now(), Path: "/w/b", Key: "/w/b", Verb: "write", Pending: true, PID: os.Getpid()}, nil)
	require.NoError(t, err)
	require.NoError(t, st.Complete(r.ID, "v3", false))
	st.Close()
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		_, v := tx.Bucket([]byte("records")).Cursor().Last()
		var last history.Record
		require.NoError(t, json.Unmarshal(v, &last))
		assert.False(t, last.Pending)
		assert.Equal(t, "v3", last.VersionAfter)
		return nil
	}))
}

// TestAReplacedDatabaseIsNotWrittenThroughAnOldHandle: history.db moved away (or replaced) while
// this process holds it: the next operation opens the file now at the path, never writes the
// moved one.
func TestAReplacedDatabaseIsNotWrittenThroughAnOldHandle(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	add(t, st, "/w/a", []byte("a"), time.Now())
	moved := filepath.Join(t.TempDir(), "moved.db")
	require.NoError(t, os.Rename(filepath.Join(dir, "history.db"), moved))
	add(t, st, "/w/b", []byte("b"), time.Now())
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Len(t, recs, 1, "a new database")
	assert.Equal(t, "/w/b", recs[0].Path)
	st.Close()
	db, err := bolt.Open(moved, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, 1, tx.Bucket([]byte("records")).Stats().KeyN, "the moved file kept its one record")
		return nil
	}))
}

// TestADeferredCompletionKeepsWhatChangedSince: a pending record changed after it was added (an
// undo marked it) keeps that change when its deferred completion is committed.
func TestADeferredCompletionKeepsWhatChangedSince(t *testing.T) {
	st := open(t, t.TempDir(), roomy)
	a, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "write", Pending: true, PID: os.Getpid()}, nil)
	require.NoError(t, err)
	b, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "restore", Undoes: a.ID}, nil)
	require.NoError(t, err)
	require.NoError(t, st.Complete(a.ID, "v2", false))
	got, err := st.Get(a.ID)
	require.NoError(t, err)
	assert.False(t, got.Pending)
	assert.Equal(t, "v2", got.VersionAfter)
	assert.Equal(t, b.ID, got.UndoneBy)
}

// notPendingThrough reads the mark below which no record is pending, from the closed store's file.
func notPendingThrough(t *testing.T, dir string, st history.Store) uint64 {
	t.Helper()
	st.Close()
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	var n uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte("meta")).Get([]byte("notPendingThrough")); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		}
		return nil
	}))
	return n
}

// A list of the pending records reads the records after a mark and moves the mark up to just below
// the oldest pending record (completed or not, of a live process or not), so a start reads what
// came since the last one, not the whole history; what it returns is every pending record.
func TestPendingListsReadAfterTheMark(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	rec := func(pending bool) history.Record {
		r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "write", Pending: pending, PID: os.Getpid()}, nil)
		require.NoError(t, err)
		return r
	}
	ids := func() (out []string) {
		recs, err := st.List(history.Match{Pending: true}, nil)
		require.NoError(t, err)
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	for range 10 {
		rec(false)
	}
	p11 := rec(true)
	for range 9 {
		rec(false)
	}
	p21 := rec(true)
	assert.Equal(t, []string{"c21", "c11"}, ids())
	assert.Equal(t, uint64(10), notPendingThrough(t, dir, st))

	require.NoError(t, st.Complete(p11.ID, "v", false))
	assert.Equal(t, []string{"c21"}, ids())
	assert.Equal(t, uint64(20), notPendingThrough(t, dir, st))

	require.NoError(t, st.Discard(p21.ID))
	rec(false)
	assert.Empty(t, ids())
	assert.Equal(t, uint64(22), notPendingThrough(t, dir, st))
	rec(true)
	assert.Equal(t, []string{"c23"}, ids())
	assert.Equal(t, uint64(22), notPendingThrough(t, dir, st))
}
