package fshistory_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/history.md "The undo tool": undoing one file of a multi-file apply_patch names the patch's
// other files, those it left as they are (to undo each) and those undone already; the folders the
// patch made for its new files go with the last of them.
func TestUndoOfAPatchFileNamesTheOthers(t *testing.T) {
	e := newEnv(t, false, nil)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolapplypatch.Plugin, nil))
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	require.NoError(t, os.WriteFile(e.path("c.txt"), []byte("c\n"), 0o644))
	e.ok(t, s, "read", args{"file_path": "c.txt"})
	e.ok(t, s, "apply_patch", args{"input": "*** Begin Patch\n" +
		"*** Add File: pkg/x/a.txt\n+a\n" +
		"*** Add File: pkg/x/b.txt\n+b\n" +
		"*** Update File: c.txt\n@@\n-c\n+C\n" +
		"*** End Patch\n"})
	e.ok(t, s, "write", args{"file_path": "alone.txt", "content": "alone\n"})

	recs := e.records(t) // newest first: alone.txt, c.txt, b.txt, a.txt
	require.Len(t, recs, 4)
	assert.NotEmpty(t, recs[1].Group)
	assert.Equal(t, []string{recs[1].Group, recs[1].Group}, []string{recs[2].Group, recs[3].Group}, "one group per apply_patch call")
	assert.NotEqual(t, recs[1].Group, recs[0].Group, "another call, another group")
	a, b, c := recs[3].Display, recs[2].Display, recs[1].Display
	qp := func(name string) string { return regexp.QuoteMeta(e.path(name)) }

	r := e.ok(t, s, "undo", args{"file_path": "pkg/x/a.txt"})
	assert.Regexp(t, `^Restored "`+qp("pkg/x/a.txt")+`" to its state before the apply_patch at `+stamp+`: it did not exist, so it was removed\.\n`+
		regexp.QuoteMeta(`The same apply_patch also changed "`+b+`", "`+c+`", which this undo left as they are: undo each by its file_path to take the whole apply_patch back.`)+`\n`+
		`The history holds no earlier change by this session to it\.$`, r.Text())
	assert.DirExists(t, e.path("pkg/x"), "b.txt is still in it")

	r = e.ok(t, s, "undo", args{"file_path": "pkg/x/b.txt"})
	assert.Regexp(t, `^Restored "`+qp("pkg/x/b.txt")+`" to its state before the apply_patch at `+stamp+`: it did not exist, so it was removed\.\n`+
		regexp.QuoteMeta(`It also removed the folders that apply_patch created for it, now empty: "`+e.path("pkg/x")+`", "`+e.path("pkg")+`".`)+`\n`+
		regexp.QuoteMeta(`The same apply_patch also changed "`+c+`", which this undo left as it is: undo it by its file_path to take the whole apply_patch back. Undone already: "`+a+`".`)+`\n`+
		`The history holds no earlier change by this session to it\.$`, r.Text())
	assert.NoDirExists(t, e.path("pkg"))

	r = e.ok(t, s, "undo", args{"file_path": "c.txt"})
	assert.Regexp(t, `^Restored "`+qp("c.txt")+`" to its state before the apply_patch at `+stamp+`\.\n`+
		regexp.QuoteMeta(`The other files of the same apply_patch were undone already: "`+a+`", "`+b+`".`)+`\n`+
		`The history holds no earlier change by this session to it\.$`, r.Text())
	assert.Equal(t, "c\n", string(readBytes(t, e.path("c.txt"))))

	r = e.ok(t, s, "undo", args{"file_path": "alone.txt"})
	assert.Regexp(t, `^Restored "`+qp("alone.txt")+`" to its state before the write at `+stamp+`: it did not exist, so it was removed\.\nThe history holds no earlier change by this session to it\.$`, r.Text(),
		"a change alone in its call names no other file")
}

// docs/history.md "The undo tool": an undone creation removes the folders it made while they are
// empty, never one that existed before it, never one that holds something, never one outside the
// workspace.
func TestUndoOfACreationRemovesTheFoldersItMade(t *testing.T) {
	e := newEnv(t, false, nil)
	s := tools.NewSession("s1")
	require.NoError(t, os.MkdirAll(e.path("ws/kept"), 0o755))
	s.SetHeader(tools.Header{Cwd: e.path("ws")})

	e.ok(t, s, "write", args{"file_path": "kept/a/b/new.txt", "content": "x\n"})
	r := e.ok(t, s, "undo", args{"file_path": "kept/a/b/new.txt"})
	assert.Regexp(t, `^Restored "`+regexp.QuoteMeta(e.path("ws/kept/a/b/new.txt"))+`" to its state before the write at `+stamp+`: it did not exist, so it was removed\.\n`+
		regexp.QuoteMeta(`It also removed the folders that write created for it, now empty: "`+e.path("ws/kept/a/b")+`", "`+e.path("ws/kept/a")+`".`)+`\n`+
		`The history holds no earlier change by this session to it\.$`, r.Text())
	assert.NoDirExists(t, e.path("ws/kept/a"))
	assert.DirExists(t, e.path("ws/kept"), "a folder that existed before stays")

	e.ok(t, s, "write", args{"file_path": "m/n/f.txt", "content": "x\n"})
	require.NoError(t, os.WriteFile(e.path("ws/m/other.txt"), []byte("other\n"), 0o644))
	r = e.ok(t, s, "undo", args{"file_path": "m/n/f.txt"})
	assert.Contains(t, r.Text(), "\n"+`It also removed the folders that write created for it, now empty: "`+e.path("ws/m/n")+`".`+"\n")
	assert.NoDirExists(t, e.path("ws/m/n"))
	assert.FileExists(t, e.path("ws/m/other.txt"), "a folder that holds something stays")

	outside := e.path("out/deep/f.txt")
	e.ok(t, s, "write", args{"file_path": outside, "content": "x\n"})
	require.Equal(t, []string{e.path("out/deep"), e.path("out")}, e.records(t)[0].MadeDirs)
	r = e.ok(t, s, "undo", args{"file_path": outside})
	assert.NotContains(t, r.Text(), "folders")
	assert.NoFileExists(t, outside)
	assert.DirExists(t, e.path("out/deep"), "never a folder outside the workspace")
}

// A record written before groups and made folders were kept (no "group", no "madeDirs") still
// decodes and undoes as it did: the file is removed, no other file is named, no folder goes.
func TestARecordOfTheOldFormatUndoesAsBefore(t *testing.T) {
	e := newEnv(t, false, nil)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolapplypatch.Plugin, nil))
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	e.ok(t, s, "apply_patch", args{"input": "*** Begin Patch\n*** Add File: old/a.txt\n+a\n*** Add File: old/b.txt\n+b\n*** End Patch\n"})

	lg, ok := history.Service.Get(e.root)
	require.True(t, ok)
	lg.Store.Close()
	db, err := bolt.Open(filepath.Join(e.store, "history.db"), 0o600, &bolt.Options{Timeout: 5 * time.Second})
	require.NoError(t, err)
	oldFields := map[string]bool{"id": true, "time": true, "workspace": true, "path": true, "display": true, "key": true, "session": true,
		"tool": true, "verb": true, "existed": true, "mode": true, "size": true, "digest": true, "kept": true, "versionBefore": true,
		"versionAfter": true, "undoes": true, "undoneBy": true, "pending": true, "afterDigest": true, "pid": true, "interrupted": true}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		recs := tx.Bucket([]byte("records"))
		return recs.ForEach(func(k, v []byte) error {
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(v, &m))
			require.Contains(t, m, "group")
			require.Contains(t, m, "madeDirs")
			delete(m, "group")
			delete(m, "madeDirs")
			for f := range m {
				require.True(t, oldFields[f], "a field of the old format: %s", f)
			}
			old, err := json.Marshal(m)
			require.NoError(t, err)
			return recs.Put(k, old)
		})
	}))
	require.NoError(t, db.Close())

	for _, name := range []string{"old/a.txt", "old/b.txt"} {
		r := e.ok(t, s, "undo", args{"file_path": name})
		assert.Regexp(t, `^Restored "`+regexp.QuoteMeta(e.path(name))+`" to its state before the apply_patch at `+stamp+`: it did not exist, so it was removed\.\nThe history holds no earlier change by this session to it\.$`, r.Text())
		assert.NoFileExists(t, e.path(name))
	}
	assert.DirExists(t, e.path("old"), "an old record names no folder, so none is removed")
}
