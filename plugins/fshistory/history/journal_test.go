package history_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// journalChildEnv names the store directory of TestJournalChild and journalChildAddsEnv how many
// records it adds.
const (
	journalChildEnv     = "HISTORY_JOURNAL_CHILD"
	journalChildAddsEnv = "HISTORY_JOURNAL_CHILD_ADDS"
)

// TestJournalChild adds records in one hold (the first committed, the others journaled, the
// contents inline), completes every other one, then kills itself before anything is folded.
func TestJournalChild(t *testing.T) {
	dir, ok := os.LookupEnv(journalChildEnv)
	if !ok {
		t.Skip("child of the journal tests")
	}
	st, err := history.Open(dir, roomy, 5*time.Second)
	require.NoError(t, err)
	n, _ := strconv.Atoi(os.Getenv(journalChildAddsEnv))
	for i := range n {
		r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/f", Key: "/w/f", Verb: "write", Existed: true, Pending: true,
			Size: int64(len(content(i)))}, bytes.NewReader(content(i)))
		require.NoError(t, err)
		if i%2 == 0 {
			require.NoError(t, st.Complete(r.ID, "v"+strconv.Itoa(i), false))
		}
	}
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGKILL))
}

func content(i int) []byte { return []byte(fmt.Sprintf("content %d\n", i)) }

// runJournalChild runs TestJournalChild on dir with n adds and requires that it was killed.
func runJournalChild(t *testing.T, dir string, n int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestJournalChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), journalChildEnv+"="+dir, journalChildAddsEnv+"="+strconv.Itoa(n))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s", out)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	require.True(t, ok && ws.Signaled(), "the child was not killed: %s", out)
}

// TestJournaledRecordsSurviveAKill: records journaled by a process killed before it folded them
// are in the store for the next one, with their content and the completions deferred before the
// last of them, and the journal is emptied. With 70 records the 66th folds the 64 before it, and
// the last four are written over the start of the folded frames.
func TestJournaledRecordsSurviveAKill(t *testing.T) {
	for _, n := range []int{10, 70} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			dir := t.TempDir()
			runJournalChild(t, dir, n)
			info, err := os.Stat(filepath.Join(dir, "history.journal"))
			require.NoError(t, err)
			require.NotZero(t, info.Size(), "the child journaled its later records")

			st := open(t, dir, roomy)
			recs, err := st.List(history.Match{}, nil)
			require.NoError(t, err)
			require.Len(t, recs, n)
			for i, r := range recs {
				k := len(recs) - 1 - i // newest first
				assert.Equal(t, "c"+strconv.Itoa(k+1), r.ID)
				got, err := st.Content(r)
				require.NoError(t, err, r.ID)
				assert.Equal(t, string(content(k)), string(got), r.ID)
				// A completion is carried by the next record's frame: the last one's stays pending.
				if k%2 == 0 && k < n-1 {
					assert.False(t, r.Pending, r.ID)
					assert.Equal(t, "v"+strconv.Itoa(k), r.VersionAfter, r.ID)
				} else {
					assert.True(t, r.Pending, r.ID)
				}
			}
			info, err = os.Stat(filepath.Join(dir, "history.journal"))
			require.NoError(t, err)
			assert.Zero(t, info.Size(), "the replay emptied the journal")
			next := add(t, st, "/w/g", []byte("after"), time.Now())
			assert.Equal(t, "c"+strconv.Itoa(n+1), next.ID, "sequences go on after the replayed ones")
		})
	}
}

// TestATornJournalTailIsIgnored: a frame cut short or failing its checksum (a write a kill
// interrupted) ends the replay; the whole frames before it are replayed.
func TestATornJournalTailIsIgnored(t *testing.T) {
	for name, tear := range map[string]func([]byte) []byte{
		"cut short":     func(b []byte) []byte { return b[:len(b)-3] },
		"bad checksum":  func(b []byte) []byte { b[len(b)-1] ^= 0xFF; return b },
		"garbage after": func(b []byte) []byte { return append(b, 9, 0, 0, 0, 1, 2, 3) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			runJournalChild(t, dir, 4) // c1 committed, c2 to c4 journaled
			p := filepath.Join(dir, "history.journal")
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(p, tear(b), 0o600))
			recs, err := open(t, dir, roomy).List(history.Match{}, nil)
			require.NoError(t, err)
			want := 3 // c4's frame is the torn one
			if name == "garbage after" {
				want = 4
			}
			assert.Len(t, recs, want)
		})
	}
}

// TestAJournalOfAnotherDatabaseIsNotReplayed: the journal a killed process left is replayed only
// into the database it was written for, not into one put in its place.
func TestAJournalOfAnotherDatabaseIsNotReplayed(t *testing.T) {
	dir := t.TempDir()
	runJournalChild(t, dir, 4)
	require.NoError(t, os.Rename(filepath.Join(dir, "history.db"), filepath.Join(t.TempDir(), "moved.db")))
	st := open(t, dir, roomy)
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Empty(t, recs)
	assert.Equal(t, "c1", add(t, st, "/w/a", []byte("a"), time.Now()).ID)
}

// TestJournaledRecordsAreFoldedBeforeReadsAndAtClose: a process's journaled records are seen by
// its own reads, and are in the database once the store is closed.
func TestJournaledRecordsAreFoldedBeforeReadsAndAtClose(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, roomy)
	for i := range 5 {
		add(t, st, "/w/f", content(i), time.Now())
	}
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Len(t, recs, 5)
	for i := 5; i < 8; i++ {
		add(t, st, "/w/f", content(i), time.Now())
	}
	st.Close()
	db, err := bolt.Open(filepath.Join(dir, "history.db"), 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, 8, tx.Bucket([]byte("records")).Stats().KeyN)
		return nil
	}))
}

// TestTheJournalKeepsTheStoreWithinMaxBytes: journaled records count against MaxBytes as
// committed ones do: a full store prunes at the Add that would pass it.
func TestTheJournalKeepsTheStoreWithinMaxBytes(t *testing.T) {
	limits := history.Limits{MaxBytes: 16 << 10, MaxAge: time.Hour, MaxContentBytes: 16 << 10}
	st := open(t, t.TempDir(), limits)
	for i := range 40 {
		add(t, st, "/w/f", bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i), time.Now())
		u, err := st.Usage()
		require.NoError(t, err)
		assert.LessOrEqual(t, u.ContentBytes, limits.MaxBytes, "after add %d", i)
	}
}

// TestAJournaledRecordIsFoldedWithItsCompletion: a completion of a record still in the journal is
// folded with it, in this process, and in the next one when the process is killed first.
func TestAJournaledRecordIsFoldedWithItsCompletion(t *testing.T) {
	st := open(t, t.TempDir(), roomy)
	var ids []string
	for i := range 6 {
		r, err := st.Add(history.Record{Time: time.Now(), Path: "/w/f", Key: "/w/f", Verb: "write", Pending: true}, nil)
		require.NoError(t, err)
		if i != 3 {
			require.NoError(t, st.Complete(r.ID, "v"+strconv.Itoa(i), i == 4))
		}
		ids = append(ids, r.ID)
	}
	for i, id := range ids {
		r, err := st.Get(id)
		require.NoError(t, err)
		if i == 3 {
			assert.True(t, r.Pending, id)
			continue
		}
		assert.False(t, r.Pending, id)
		assert.Equal(t, "v"+strconv.Itoa(i), r.VersionAfter, id)
		assert.Equal(t, i == 4, r.Interrupted, id)
	}
}
