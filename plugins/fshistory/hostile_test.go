package fshistory_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/fshistory/history/historytest"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// damagedStore makes a store directory holding 300 records whose history.db has one page of
// garbage (bbolt panics on it).
func damagedStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "history")
	st, err := history.Open(dir, history.Limits{MaxBytes: 1 << 30, MaxAge: time.Hour, MaxContentBytes: 1 << 20}, 0)
	require.NoError(t, err)
	for i := range 300 {
		p := fmt.Sprintf("/w/f%03d", i)
		_, err := st.Add(history.Record{Time: time.Now(), Path: p, Key: p, Verb: "write", Existed: true, Size: 9}, strings.NewReader(fmt.Sprintf("content %d", i)))
		require.NoError(t, err)
	}
	st.Close()
	historytest.CorruptRecordsRoot(t, dir)
	return dir
}

// TestStartSetsADamagedStoreAside: a corrupt page in history.db never stops the start
// (docs/history.md "Damage"): the file is set aside, the store starts empty and records again.
func TestStartSetsADamagedStoreAside(t *testing.T) {
	dir := damagedStore(t)
	start := time.Now()
	e := newEnv(t, false, func(c *fshistory.Config) { c.Dir = dir })
	t.Logf("start with a damaged store: %v", time.Since(start))
	aside, err := filepath.Glob(filepath.Join(dir, "history.db.*.damaged"))
	require.NoError(t, err)
	require.Len(t, aside, 1)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	e.ok(t, s, "write", args{"file_path": e.path("a.txt"), "content": "a\n"})
	lg, ok := history.Service.Get(e.root)
	require.True(t, ok)
	recs, err := lg.Store.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Len(t, recs, 1)
}

// TestAFIFOStoreDoesNotHang: a FIFO put in place of history.db fails the operation at once (it
// blocked a read-only open for good) and is set aside; writes record again.
func TestAFIFOStoreDoesNotHang(t *testing.T) {
	e := newEnv(t, false, nil)
	db := filepath.Join(e.store, "history.db")
	require.NoError(t, os.Remove(db))
	require.NoError(t, syscall.Mkfifo(db, 0o600))
	lg, ok := history.Service.Get(e.root)
	require.True(t, ok)
	listed := make(chan error, 1)
	go func() {
		_, err := lg.Store.List(history.Match{}, nil) // a read-only open of a FIFO blocked for good before
		listed <- err
	}()
	select {
	case err := <-listed:
		require.ErrorIs(t, err, history.ErrDamaged)
	case <-time.After(20 * time.Second): // not a timing: a hang detector
		t.Fatal("listing the history blocked on a FIFO history.db")
	}
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	e.call(s, "write", args{"file_path": e.path("a.txt"), "content": "a\n"})
	require.Equal(t, []byte("a\n"), readBytes(t, e.path("a.txt")))
	fi, err := os.Lstat(db)
	if err == nil {
		require.True(t, fi.Mode().IsRegular(), "the FIFO was set aside")
	}
}

// TestAPatchWaitsOneLockTimeoutForAHeldStore: with history.db held by another process, a
// 10-file patch waits one lock timeout in all, not one per file (docs/history.md "The store").
func TestAPatchWaitsOneLockTimeoutForAHeldStore(t *testing.T) {
	e := newEnv(t, false, func(c *fshistory.Config) { c.LockTimeout = fshistory.Duration(time.Second) })
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolapplypatch.Plugin, nil))
	historytest.HoldStore(t, e.store)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n")
	for i := range 10 {
		fmt.Fprintf(&patch, "*** Add File: f%d.txt\n+%d\n", i, i)
	}
	patch.WriteString("*** End Patch\n")
	start := time.Now()
	e.call(s, "apply_patch", args{"input": patch.String()})
	took := time.Since(start)
	t.Logf("10-file patch, store held, lockTimeout 1s: %v", took)
	// Ten files waited ten lock timeouts before; the bound is the structure (one), 3 s leaves the
	// machine its noise.
	require.Less(t, took, 3*time.Second)
}

// TestStartWaitsOnceForAHeldStore: the start's sweep and settling share one lock timeout.
func TestStartWaitsOnceForAHeldStore(t *testing.T) {
	store := filepath.Join(t.TempDir(), "history")
	_, err := history.Open(store, history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20}, 0)
	require.NoError(t, err)
	historytest.HoldStore(t, store)
	start := time.Now()
	newEnv(t, false, func(c *fshistory.Config) { c.Dir = store; c.LockTimeout = fshistory.Duration(time.Second) })
	took := time.Since(start)
	t.Logf("start, store held, lockTimeout 1s: %v", took)
	require.Less(t, took, 1800*time.Millisecond) // two lock timeouts before
}
