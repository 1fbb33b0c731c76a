package fshistory_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/toolapplypatch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/history.md: every file an apply_patch publishes is recorded, and undo takes each back: an
// updated file gets its bytes back, an added one is removed, a deleted one and a moved one come back.
func TestUndoTakesBackEachFileOfAPatch(t *testing.T) {
	e := newEnv(t, false, nil)
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, toolapplypatch.Plugin, nil))
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: e.dir})
	upd, add, del, src, dst := e.path("a.txt"), e.path("new/b.txt"), e.path("c.txt"), e.path("d.txt"), e.path("e.txt")
	original := []byte("\xEF\xBB\xBFone\r\ntwo\r\n")
	require.NoError(t, os.WriteFile(upd, original, 0o640))
	require.NoError(t, os.Chmod(upd, 0o640))
	require.NoError(t, os.WriteFile(del, []byte("gone\n"), 0o600))
	require.NoError(t, os.Chmod(del, 0o600))
	require.NoError(t, os.WriteFile(src, []byte("moved\n"), 0o644))
	for _, p := range []string{upd, del, src} {
		e.ok(t, s, "read", args{"file_path": p})
	}

	e.ok(t, s, "apply_patch", args{"input": "*** Begin Patch\n" +
		"*** Update File: a.txt\n@@\n-two\n+TWO\n" +
		"*** Add File: new/b.txt\n+added\n" +
		"*** Delete File: c.txt\n" +
		"*** Update File: d.txt\n*** Move to: e.txt\n@@\n-moved\n+MOVED\n" +
		"*** End Patch\n"})
	require.Equal(t, "\xEF\xBB\xBFone\r\nTWO\r\n", string(readBytes(t, upd)))
	recs := e.records(t)
	require.Len(t, recs, 5, "one record per file the patch changed")
	for _, r := range recs {
		assert.Equal(t, "apply_patch", r.Tool)
		assert.False(t, r.Pending)
	}

	r := e.ok(t, s, "undo", args{"file_path": upd})
	assert.Regexp(t, "^"+undoPattern("undo.success", "path", upd, "tool", "apply_patch", "time", anyTime)+"\n", r.Text())
	assert.Equal(t, original, readBytes(t, upd))
	assert.Equal(t, os.FileMode(0o640), modeOf(t, upd))

	r = e.ok(t, s, "undo", args{"file_path": add})
	assert.Regexp(t, "^"+undoPattern("undo.success.removed", "path", add, "tool", "apply_patch", "time", anyTime)+"\n"+
		undoPattern("undo.folders", "tool", "apply_patch", "folders", `"`+e.path("new")+`"`)+"\n"+
		strings.Replace(undoPattern("undo.group.left.many", "tool", "apply_patch", "files", "LEFT"), "LEFT", `"[^"]*c\.txt", "[^"]*e\.txt", "[^"]*d\.txt"`, 1)+
		strings.Replace(undoPattern("undo.group.undone_too", "files", "DONE"), "DONE", `"[^"]*a\.txt"`, 1)+"\n"+
		undoPattern("undo.next.none")+"$", r.Text())
	assert.NoDirExists(t, e.path("new"))
	assert.NoFileExists(t, add)

	e.ok(t, s, "undo", args{"file_path": del})
	assert.Equal(t, []byte("gone\n"), readBytes(t, del))
	assert.Equal(t, os.FileMode(0o600), modeOf(t, del))

	e.ok(t, s, "undo", args{"file_path": dst})
	assert.NoFileExists(t, dst)
	e.ok(t, s, "undo", args{"file_path": src})
	assert.Equal(t, []byte("moved\n"), readBytes(t, src))
}
