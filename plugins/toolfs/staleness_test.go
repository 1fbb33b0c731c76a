package toolfs_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fspolicy"
)

func twelve() string {
	var b strings.Builder
	for i := 1; i <= 12; i++ {
		b.WriteString("line " + string(rune('a'+i-1)) + "\n")
	}
	return b.String()
}

// bump gives name a new version with the same bytes: a new inode and a later mtime.
func bump(t *testing.T, e *env, name string) {
	t.Helper()
	b, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	tmp := e.path(name + ".tmp")
	require.NoError(t, os.WriteFile(tmp, b, 0o644))
	later := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(tmp, later, later))
	require.NoError(t, os.Rename(tmp, e.path(name)))
}

func TestSameBytesAfterReadAreNotStale(t *testing.T) {
	for _, rule := range []fspolicy.Staleness{"", fspolicy.StalenessRegion} {
		e := newEnv(t, envOptions{staleness: rule})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": e.path("a.txt")}))
		bump(t, e, "a.txt")
		requireOK(t, e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line c", "new_string": "line C"}))
		bump(t, e, "a.txt")
		requireOK(t, e.call("write", args{"file_path": e.path("a.txt"), "content": "new\n"}))
		bump(t, e, "a.txt")
		r := e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "new", "new_string": "newer"})
		requireOK(t, r)
		assert.Equal(t, "newer\n", e.readFile(t, "a.txt"), "after a write the model has seen the file whole")
	}
}

func TestVersionRuleStaysStale(t *testing.T) {
	e := newEnv(t, envOptions{staleness: fspolicy.StalenessVersion})
	e.writeFile(t, "a.txt", twelve())
	requireOK(t, e.call("read", args{"file_path": e.path("a.txt")}))
	bump(t, e, "a.txt")
	requireFailure(t, e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line c", "new_string": "x"}),
		`Error: cannot edit "`+e.path("a.txt")+`": file changed since it was read — re-read the file, then retry`, "FS_STALE_VERSION")
}

func TestChangeElsewhere(t *testing.T) {
	p := func(e *env) string { return e.path("a.txt") }
	change := func(t *testing.T, e *env) {
		require.NoError(t, os.WriteFile(p(e), []byte(strings.Replace(twelve(), "line j\n", "line J\n", 1)), 0o644))
	}
	t.Run("content refuses and shows the diff", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": p(e)}))
		change(t, e)
		r := e.call("edit", args{"file_path": p(e), "old_string": "line c", "new_string": "x"})
		require.True(t, r.IsError)
		assert.Equal(t, "Error: cannot edit \""+p(e)+"\": file changed since it was read — re-read the file, then retry\n"+
			"What changed since the read (- as read, + now):\n@@ -8,5 +8,5 @@\n line h\n line i\n-line j\n+line J\n line k\n line l\n"+shownNote, r.Text())
		assert.Equal(t, "FS_STALE_VERSION", r.Code())
		change(t, e) // a new version, the same bytes: what the refusal showed stays what was seen
		bump(t, e, "a.txt")
		e.writeFile(t, "a.txt", strings.Replace(twelve(), "line j\n", "line J\n", 1)+"line m\n")
		w := e.call("write", args{"file_path": p(e), "content": "x\n"})
		require.True(t, w.IsError)
		assert.True(t, strings.HasPrefix(w.Text(), "Error: cannot write \""+p(e)+"\": file changed since it was read — re-read the file, then retry\nWhat changed"), w.Text())
	})
	t.Run("region lands and says where", func(t *testing.T) {
		e := newEnv(t, envOptions{staleness: fspolicy.StalenessRegion})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": p(e)}))
		change(t, e)
		r := e.call("edit", args{"file_path": p(e), "old_string": "line c", "new_string": "line C"})
		requireOK(t, r)
		assert.Equal(t, edited(p(e))+"\n"+golden("edit.success.changed_elsewhere", "lines", "line 10"), r.Text())
		assert.Contains(t, e.readFile(t, "a.txt"), "line C\n")
		assert.Contains(t, e.readFile(t, "a.txt"), "line J\n", "the outside change is kept")
		assert.Contains(t, valueJSON(t, r), `"changedElsewhere":[{"first":10,"last":10}]`)
	})
	t.Run("region refuses a change overlapping the edit", func(t *testing.T) {
		e := newEnv(t, envOptions{staleness: fspolicy.StalenessRegion})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": p(e)}))
		require.NoError(t, os.WriteFile(p(e), []byte(strings.Replace(twelve(), "line c\n", "line cc\n", 1)), 0o644))
		r := e.call("edit", args{"file_path": p(e), "old_string": "line c", "new_string": "x"})
		require.True(t, r.IsError)
		assert.Contains(t, r.Text(), "-line c\n+line cc")
		assert.Equal(t, strings.Replace(twelve(), "line c\n", "line cc\n", 1), e.readFile(t, "a.txt"), "nothing written")
	})
	t.Run("region refuses an edit of lines never read once a read line changed", func(t *testing.T) {
		e := newEnv(t, envOptions{staleness: fspolicy.StalenessRegion})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": p(e), "limit": 3}))
		require.NoError(t, os.WriteFile(p(e), []byte(strings.Replace(twelve(), "line b\n", "line B\n", 1)), 0o644))
		r := e.call("edit", args{"file_path": p(e), "old_string": "line k", "new_string": "x"})
		require.True(t, r.IsError, r.Text())
		assert.Equal(t, "FS_STALE_VERSION", r.Code())
	})
	t.Run("partial read: write over a moved version", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.writeFile(t, "a.txt", twelve())
		requireOK(t, e.call("read", args{"file_path": p(e), "limit": 3}))
		bump(t, e, "a.txt")
		requireOK(t, e.call("edit", args{"file_path": p(e), "old_string": "line b", "new_string": "line B"}))
		e2 := newEnv(t, envOptions{})
		e2.writeFile(t, "a.txt", twelve())
		requireOK(t, e2.call("read", args{"file_path": e2.path("a.txt"), "limit": 3}))
		bump(t, e2, "a.txt")
		w := e2.call("write", args{"file_path": e2.path("a.txt"), "content": "x\n"})
		require.True(t, w.IsError)
		assert.Equal(t, "Error: cannot write \""+e2.path("a.txt")+"\": file changed since it was read — re-read the file, then retry\n"+
			"Only lines 1-3 of its 12 lines were read, and they are unchanged; the rest may have changed.", w.Text())
	})
}

// shownNote follows the diff of a stale refusal (docs/tool-fs.md "What changed since the read").
const shownNote = "The lines shown with + count as read: an edit of them can be retried as they are now, without another read."

// A stale refusal is a read of what it shows: a retry aimed at the lines it showed lands without
// another read, and one aimed elsewhere that changed is refused again.
func TestStaleRefusalCountsAsARead(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", twelve())
	requireOK(t, e.call("read", args{"file_path": e.path("a.txt")}))
	e.writeFile(t, "a.txt", strings.Replace(strings.Replace(twelve(), "line j\n", "line J\n", 1), "line b\n", "line B\n", 1))
	r := e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line j", "new_string": "line 10"})
	require.True(t, r.IsError)
	require.Equal(t, "FS_STALE_VERSION", r.Code())
	requireOK(t, e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line J", "new_string": "line 10"}))
	requireOK(t, e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line B", "new_string": "line 2"}))
	assert.Contains(t, e.readFile(t, "a.txt"), "line 2\nline c\n")
}

// Windows read twice over the same lines show one change once.
func TestStaleRefusalShowsAChangeOnce(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", twelve())
	requireOK(t, e.call("read", args{"file_path": e.path("a.txt"), "limit": 8}))
	requireOK(t, e.call("read", args{"file_path": e.path("a.txt"), "offset": 4, "limit": 9}))
	e.writeFile(t, "a.txt", strings.Replace(twelve(), "line f\n", "line F\n", 1))
	r := e.call("edit", args{"file_path": e.path("a.txt"), "old_string": "line a", "new_string": "x"})
	require.True(t, r.IsError)
	assert.Equal(t, "Error: cannot edit \""+e.path("a.txt")+"\": file changed since it was read — re-read the file, then retry\n"+
		"What changed since the read (- as read, + now):\n@@ -4,5 +4,5 @@\n line d\n line e\n-line f\n+line F\n line g\n line h\n"+shownNote, r.Text())
}
