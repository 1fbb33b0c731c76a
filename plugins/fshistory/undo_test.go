package fshistory_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fshistory"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/tools"
)

var stamp = `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`

// edit, then write, then undo twice: each undo restores the bytes (BOM, CRLF, lone CR) and the
// mode the file had before the change it undoes; a third undo finds nothing.
func TestUndoStepsBackThroughEachVersion(t *testing.T) {
	e := newEnv(t, false, nil)
	s := tools.NewSession("s1")
	p := e.path("a.txt")
	original := []byte("\xEF\xBB\xBFone\r\ntwo\nthree\rfour\r\n")
	require.NoError(t, os.WriteFile(p, original, 0o640))
	require.NoError(t, os.Chmod(p, 0o640))

	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "edit", args{"file_path": p, "old_string": "two", "new_string": "TWO"})
	edited := readBytes(t, p)
	require.NotEqual(t, original, edited)
	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "write", args{"file_path": p, "content": "replaced\n"})

	r := e.ok(t, s, "undo", args{"file_path": p})
	assert.Regexp(t, "^"+undoPattern("undo.success", "path", p, "tool", "write", "time", anyTime)+"\n"+
		undoPattern("undo.next.again", "tool", "edit", "time", anyTime)+"$", r.Text())
	assert.Equal(t, edited, readBytes(t, p))
	assert.Equal(t, os.FileMode(0o640), modeOf(t, p))

	r = e.ok(t, s, "undo", args{"file_path": p})
	assert.Regexp(t, "^"+undoPattern("undo.success", "path", p, "tool", "edit", "time", anyTime)+"\n"+undoPattern("undo.next.none")+"$", r.Text())
	assert.Equal(t, original, readBytes(t, p))
	assert.Equal(t, os.FileMode(0o640), modeOf(t, p))

	r = e.call(s, "undo", args{"file_path": p})
	require.True(t, r.IsError)
	assert.Equal(t, "Error: "+undoText("undo.error.none", "path", p), r.Text())
	assert.Equal(t, "FS_NOT_FOUND", r.Code())
	assert.Equal(t, original, readBytes(t, p))

	recs := e.records(t) // newest first: undo, undo, write, edit
	require.Len(t, recs, 4)
	assert.Equal(t, []string{"undo", "undo", "write", "edit"}, []string{recs[0].Tool, recs[1].Tool, recs[2].Tool, recs[3].Tool})
	assert.Equal(t, recs[3].ID, recs[0].Undoes)
	assert.Equal(t, recs[2].ID, recs[1].Undoes)
	assert.Equal(t, "s1", recs[3].Session)
	assert.Equal(t, uint32(0o640), recs[3].Mode)
	assert.Equal(t, int64(len(original)), recs[3].Size)
}

func TestUndoOfACreationRemovesTheFile(t *testing.T) {
	e := newEnv(t, false, nil)
	s := tools.NewSession("s1")
	p := e.path("new.txt")
	e.ok(t, s, "write", args{"file_path": p, "content": "created\n"})
	r := e.ok(t, s, "undo", args{"file_path": p})
	assert.Regexp(t, "^"+undoPattern("undo.success.removed", "path", p, "tool", "write", "time", anyTime)+"\n"+undoPattern("undo.next.none")+"$", r.Text())
	assert.NoFileExists(t, p)
	recs := e.records(t)
	require.Len(t, recs, 2)
	assert.False(t, recs[1].Existed)
	assert.Equal(t, "", recs[0].VersionAfter)
}

// A change made after Cordon's (here by another program) refuses the undo and leaves the file
// as it is.
func TestUndoRefusedOverALaterExternalChange(t *testing.T) {
	e := newEnv(t, false, nil)
	s := tools.NewSession("s1")
	p := e.path("a.txt")
	require.NoError(t, os.WriteFile(p, []byte("one\n"), 0o644))
	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "edit", args{"file_path": p, "old_string": "one", "new_string": "two"})
	require.NoError(t, os.WriteFile(p, []byte("theirs\n"), 0o644))

	r := e.call(s, "undo", args{"file_path": p})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_STALE_VERSION", r.Code())
	assert.Regexp(t, "^Error: "+undoPattern("undo.error.outside", "path", p, "what", undoText("undo.outside.changed"), "tool", "edit", "time", anyTime, "change", "c1")+"$", r.Text())
	assert.Equal(t, "theirs\n", string(readBytes(t, p)))

	require.NoError(t, os.Remove(p))
	r = e.call(s, "undo", args{"file_path": p})
	assert.Contains(t, firstLine(r.Text()), "— it was removed outside Cordon after the edit at")
	assert.NoFileExists(t, p)
	assert.Len(t, e.records(t), 1)

	// A directory in the file's place is a change outside Cordon too, said as one (not the
	// provider's "cannot write ...: not a regular file"), and it is left as it is.
	require.NoError(t, os.Mkdir(p, 0o755))
	r = e.call(s, "undo", args{"file_path": p})
	assert.Equal(t, "FS_STALE_VERSION", r.Code())
	assert.Regexp(t, "^Error: "+undoPattern("undo.error.outside", "path", p, "what", undoText("undo.outside.replaced"), "tool", "edit", "time", anyTime, "change", "c1")+"$", r.Text())
	assert.DirExists(t, p)
	assert.Len(t, e.records(t), 1)
}

// Session s1's undo is refused over a later change by session s2; s2's own undo works.
func TestUndoRefusedOverAnotherSessionsChange(t *testing.T) {
	e := newEnv(t, false, nil)
	s1, s2 := tools.NewSession("s1"), tools.NewSession("s2")
	p := e.path("a.txt")
	require.NoError(t, os.WriteFile(p, []byte("one\n"), 0o644))
	e.ok(t, s1, "read", args{"file_path": p})
	e.ok(t, s1, "edit", args{"file_path": p, "old_string": "one", "new_string": "two"})
	e.ok(t, s2, "read", args{"file_path": p})
	e.ok(t, s2, "write", args{"file_path": p, "content": "three\n"})

	r := e.call(s1, "undo", args{"file_path": p})
	require.True(t, r.IsError)
	assert.Regexp(t, "^Error: "+undoPattern("undo.error.later", "path", p, "later", undoText("undo.later.in_session", "tool", "write", "session", "s2"),
		"later_time", anyTime, "later_change", "c2", "tool", "edit", "time", anyTime, "change", "c1")+"$", r.Text())
	assert.Equal(t, "three\n", string(readBytes(t, p)))

	e.ok(t, s2, "undo", args{"file_path": p})
	assert.Equal(t, "two\n", string(readBytes(t, p)))
	e.ok(t, s1, "undo", args{"file_path": p})
	assert.Equal(t, "one\n", string(readBytes(t, p)))
}

// A file over maxContentBytes is recorded by its digest only, and its undo says so.
func TestLargeFileIsRecordedByReferenceOnly(t *testing.T) {
	e := newEnv(t, false, func(c *fshistory.Config) { c.MaxContentBytes = 8 })
	s := tools.NewSession("s1")
	p := e.path("big.txt")
	require.NoError(t, os.WriteFile(p, []byte("0123456789abcdef\n"), 0o644))
	e.ok(t, s, "read", args{"file_path": p})
	e.ok(t, s, "write", args{"file_path": p, "content": "small\n"})
	recs := e.records(t)
	require.Len(t, recs, 1)
	assert.False(t, recs[0].Kept)
	assert.Equal(t, int64(17), recs[0].Size)
	assert.Len(t, recs[0].Digest, 64)

	r := e.call(s, "undo", args{"file_path": p})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_TOO_LARGE", r.Code())
	assert.Regexp(t, "^Error: "+undoPattern("undo.error.digest_only", "path", p, "tool", "write", "time", anyTime, "size", "17")+"$", r.Text())
	assert.Equal(t, "small\n", string(readBytes(t, p)))
}

// Without fs-history there is no undo tool and write is unchanged; disposing the plugin removes
// the tool and stops the recording.
func TestRemovingThePluginRemovesUndo(t *testing.T) {
	bare := newEnv(t, true, nil)
	assert.NotContains(t, bare.toolNames(), "undo")
	p := bare.path("a.txt")
	bare.ok(t, nil, "write", args{"file_path": p, "content": "x\n"})
	assert.Equal(t, "x\n", string(readBytes(t, p)))

	e := newEnv(t, false, nil)
	assert.Contains(t, e.toolNames(), "undo")
	e.ok(t, nil, "write", args{"file_path": e.path("a.txt"), "content": "x\n"})
	require.Len(t, e.records(t), 1)
	require.NoError(t, e.hist.Dispose())
	assert.NotContains(t, e.toolNames(), "undo")
	e.ok(t, nil, "write", args{"file_path": e.path("b.txt"), "content": "y\n"})
	st, err := history.Open(e.store, history.Limits{MaxBytes: 1 << 20}, 0)
	require.NoError(t, err)
	recs, err := st.List(history.Match{}, nil)
	require.NoError(t, err)
	assert.Len(t, recs, 1)
}
