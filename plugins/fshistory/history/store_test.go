package history_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

func open(t *testing.T, dir string, l history.Limits) history.Store {
	t.Helper()
	st, err := history.Open(dir, l, 0)
	require.NoError(t, err)
	return st
}

func add(t *testing.T, st history.Store, path string, content []byte, at time.Time) history.Record {
	t.Helper()
	r, err := st.Add(history.Record{Time: at, Path: path, Key: path, Display: path, Verb: "write", Existed: true, Size: int64(len(content))}, bytes.NewReader(content))
	require.NoError(t, err)
	return r
}

func TestAddListContent(t *testing.T) {
	st := open(t, t.TempDir(), history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	now := time.Now()
	a := add(t, st, "/w/a", []byte("one"), now)
	b := add(t, st, "/w/b", []byte("two"), now)
	c := add(t, st, "/w/a", []byte("one"), now) // same content: one blob
	assert.Equal(t, []string{"c1", "c2", "c3"}, []string{a.ID, b.ID, c.ID})
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Len(t, recs, 3)
	assert.Equal(t, "c3", recs[0].ID)
	got, err := st.Content(recs[2])
	require.NoError(t, err)
	assert.Equal(t, "one", string(got))
	u, err := st.Usage()
	require.NoError(t, err)
	assert.Equal(t, 3, u.Records)
	assert.Equal(t, 2, u.Contents)
	assert.Equal(t, int64(6), u.ContentBytes)

	got1, err := st.Get("c2")
	require.NoError(t, err)
	assert.Equal(t, "/w/b", got1.Path)
	_, err = st.Get("c9")
	assert.ErrorIs(t, err, history.ErrNoChange)
}

// 40 MiB of changes into a store bounded at 8 MiB: the oldest go first, the content stays within
// the bound, and the newest changes are whole.
func TestStoreStaysWithinMaxBytes(t *testing.T) {
	dir := t.TempDir()
	const max = 8 << 20
	st := open(t, dir, history.Limits{MaxBytes: max, MaxAge: time.Hour, MaxContentBytes: 16 << 20})
	chunk := 1 << 20
	now := time.Now()
	for i := range 40 {
		content := bytes.Repeat([]byte{byte('a' + i%26)}, chunk)
		content = append(content, fmt.Sprint(i)...)
		add(t, st, fmt.Sprintf("/w/f%d", i%5), content, now)
	}
	u, err := st.Usage()
	require.NoError(t, err)
	t.Logf("after 40 MiB of changes with maxBytes 8 MiB: %+v", u)
	assert.LessOrEqual(t, u.ContentBytes, int64(max))
	assert.Equal(t, 7, u.Records, "eight 1 MiB+ contents would exceed 8 MiB")
	assert.Less(t, u.FileBytes, int64(max)+1<<20)
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Equal(t, "c40", recs[0].ID)
	for _, r := range recs {
		_, err := st.Content(r)
		require.NoError(t, err)
	}
	blobs := 0
	filepath.WalkDir(filepath.Join(dir, "blobs"), func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			blobs++
		}
		return nil
	})
	assert.Equal(t, 7, blobs, "a pruned record's content file is removed")
}

func TestStoreDropsChangesOlderThanMaxAge(t *testing.T) {
	st := open(t, t.TempDir(), history.Limits{MaxBytes: 1 << 20, MaxAge: 24 * time.Hour, MaxContentBytes: 1 << 20})
	now := time.Now()
	add(t, st, "/w/a", []byte("old"), now.Add(-25*time.Hour))
	add(t, st, "/w/a", []byte("recent"), now.Add(-23*time.Hour))
	add(t, st, "/w/a", []byte("new"), now)
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"c3", "c2"}, []string{recs[0].ID, recs[1].ID})
}

func TestContentOverTheCapKeepsTheDigestOnly(t *testing.T) {
	st := open(t, t.TempDir(), history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 4})
	content := []byte("more than four")
	r := add(t, st, "/w/a", content, time.Now())
	sum := sha256.Sum256(content)
	assert.False(t, r.Kept)
	assert.Equal(t, hex.EncodeToString(sum[:]), r.Digest)
	_, err := st.Content(r)
	assert.ErrorIs(t, err, history.ErrContentLost)
	// The size hint may be wrong (a file that grew): the bytes read decide.
	r, err = st.Add(history.Record{Time: time.Now(), Path: "/w/b", Key: "/w/b", Existed: true, Size: 2}, bytes.NewReader(content))
	require.NoError(t, err)
	assert.False(t, r.Kept)
	assert.Equal(t, int64(len(content)), r.Size)
	u, err := st.Usage()
	require.NoError(t, err)
	assert.Zero(t, u.ContentBytes)
}

func TestSweepRemovesWhatNoRecordNames(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	r := add(t, st, "/w/a", []byte("kept"), time.Now())
	orphan := filepath.Join(dir, "blobs", "ab", "ab"+fmt.Sprintf("%062d", 0))
	require.NoError(t, os.MkdirAll(filepath.Dir(orphan), 0o700))
	require.NoError(t, os.WriteFile(orphan, []byte("left by a killed process"), 0o600))
	temp := filepath.Join(dir, "blobs", "tmp-123")
	require.NoError(t, os.WriteFile(temp, []byte("partial"), 0o600))
	require.NoError(t, st.Sweep())
	assert.NoFileExists(t, orphan)
	assert.NoFileExists(t, temp)
	got, err := st.Content(r)
	require.NoError(t, err)
	assert.Equal(t, "kept", string(got))
}

func TestCorruptContentIsDetected(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	small := add(t, st, "/w/s", []byte("small"), time.Now())
	assert.NoDirExists(t, filepath.Join(dir, "blobs", small.Digest[:2]), "a small content is kept in the database")
	big := bytes.Repeat([]byte("k"), history.InlineMaxBytes+1) // kept in a file
	r := add(t, st, "/w/a", big, time.Now())
	big[0] = 'K'
	require.NoError(t, os.WriteFile(filepath.Join(dir, "blobs", r.Digest[:2], r.Digest), big, 0o600))
	_, err := st.Content(r)
	assert.ErrorIs(t, err, history.ErrContentLost)
}

// An undo record marks the change it undid in the same commit.
func TestAddMarksTheUndoneChange(t *testing.T) {
	st := open(t, t.TempDir(), history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	a := add(t, st, "/w/a", []byte("one"), time.Now())
	u, err := st.Add(history.Record{Time: time.Now(), Path: "/w/a", Key: "/w/a", Verb: "restore", Undoes: a.ID, Existed: true, Size: 3}, bytes.NewReader([]byte("two")))
	require.NoError(t, err)
	got, err := st.Get(a.ID)
	require.NoError(t, err)
	assert.Equal(t, u.ID, got.UndoneBy)
}

func TestParseChangeID(t *testing.T) {
	for s, want := range map[string]uint64{"c1": 1, "c42": 42} {
		n, ok := history.ParseChangeID(s)
		assert.True(t, ok, s)
		assert.Equal(t, want, n)
	}
	for _, s := range []string{"", "c", "c0", "c01", "42", "cx", "a.txt", "c1/x"} {
		_, ok := history.ParseChangeID(s)
		assert.False(t, ok, s)
	}
}

func TestObservationsAreKeptUntilMaxAge(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	_, ok, err := st.Observation("principal:alice", "/w/a")
	require.NoError(t, err)
	assert.False(t, ok)
	require.NoError(t, st.Observe("principal:alice", "/w/a", history.Observed{Kind: "present", Version: "v1", Time: time.Now()}))
	require.NoError(t, st.Observe("principal:alice", "/w/old", history.Observed{Kind: "present", Version: "v0", Time: time.Now().Add(-2 * time.Hour)}))

	again := open(t, dir, history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20}) // another process
	o, ok, err := again.Observation("principal:alice", "/w/a")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "v1", o.Version)
	_, ok, err = again.Observation("principal:bob", "/w/a")
	require.NoError(t, err)
	assert.False(t, ok)
	_, ok, err = again.Observation("principal:alice", "/w/old")
	require.NoError(t, err)
	assert.False(t, ok, "an observation older than maxAge is not kept")
	require.NoError(t, again.Sweep())
	_, ok, err = again.Observation("principal:alice", "/w/a")
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestModes(t *testing.T) {
	for _, m := range []os.FileMode{0o644, 0o750 | os.ModeSetgid, 0o755 | os.ModeSetuid, 0o777 | os.ModeSticky} {
		assert.Equal(t, m, history.FileMode(history.PosixMode(m)), m.String())
	}
	assert.Equal(t, uint32(0o2750), history.PosixMode(0o750|os.ModeSetgid))
}

// A Match returns exactly the records whose fields equal the ones it sets, also when a key or a
// group holds bytes JSON escapes ('"', '<', '&', a line break, invalid UTF-8) and when another
// field holds the text of the marks it looks for.
func TestListMatchIsExact(t *testing.T) {
	st := open(t, t.TempDir(), history.Limits{MaxBytes: 1 << 20, MaxAge: time.Hour, MaxContentBytes: 1 << 20})
	keys := []string{"/w/a", `/w/"q"<&>`, "/w/line\nbreak", "/w/bad\xff", "/w/a2"}
	groups := []string{"", "g1", `g"2`}
	now := time.Now()
	for i := range 30 {
		r := history.Record{Time: now, Path: keys[i%len(keys)], Key: keys[i%len(keys)], Verb: "write",
			Display: `"pending":true "key":"/w/a" "group":"g1"`, Group: groups[i%len(groups)], Pending: i%4 == 0, PID: 1}
		_, err := st.Add(r, nil)
		require.NoError(t, err)
	}
	all, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	require.Len(t, all, 30)
	for _, m := range []history.Match{{Pending: true}, {Key: "/w/a"}, {Key: `/w/"q"<&>`}, {Key: "/w/line\nbreak"},
		{Key: "/w/bad\xff"}, {Group: "g1"}, {Group: `g"2`}, {Pending: true, Key: "/w/a2"}, {Key: "/w/none"}} {
		var want []string
		for _, r := range all {
			if (!m.Pending || r.Pending) && (m.Key == "" || r.Key == m.Key) && (m.Group == "" || r.Group == m.Group) {
				want = append(want, r.ID)
			}
		}
		got, err := st.List(m, nil)
		require.NoError(t, err)
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		assert.Equal(t, want, ids, "%+v", m)
	}
}

// Pruning decodes the oldest record again when its stored bytes are not those it decoded last:
// here the database is replaced under the process, and the new one's first record (as old as
// MaxAge allows no more) takes the same sequence as the old one's (recent).
func TestPruneDecodesANewOldestRecord(t *testing.T) {
	dir := t.TempDir()
	st := open(t, dir, history.Limits{MaxBytes: 1 << 20, MaxAge: 24 * time.Hour, MaxContentBytes: 1 << 20})
	now := time.Now()
	add(t, st, "/w/a", []byte("recent"), now)
	add(t, st, "/w/b", []byte("new"), now) // prune reads record 1: recent, kept
	require.NoError(t, os.Remove(filepath.Join(dir, "history.db")))
	add(t, st, "/w/c", []byte("old"), now.Add(-25*time.Hour)) // record 1 again, too old
	add(t, st, "/w/d", []byte("new"), now)
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	var keys []string
	for _, r := range recs {
		keys = append(keys, r.Key)
	}
	assert.Equal(t, []string{"/w/d"}, keys, "the old record under a recent one's sequence is dropped")
}
