package fshistory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// A record names its session's working directory, canonical (reached through a link, it is the
// link's target), and each session's own: the recorder resolves a working directory once and
// keeps it (docs/history.md "What is recorded"), so two sessions in two directories do not share it.
func TestARecordNamesItsSessionsCanonicalWorkspace(t *testing.T) {
	e := newEnv(t, false, nil)
	sub := e.path("sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(sub, link))

	plain := tools.NewSession("plain")
	linked := tools.NewSession("linked")
	linked.SetHeader(tools.Header{Cwd: link})
	for i, c := range []struct {
		s    *tools.Session
		file string
	}{{plain, e.path("a.txt")}, {linked, filepath.Join(sub, "b.txt")}, {plain, e.path("c.txt")}, {linked, filepath.Join(sub, "d.txt")}} {
		e.ok(t, c.s, "write", args{"file_path": c.file, "content": "x\n"})
		recs := e.records(t)
		require.Len(t, recs, i+1)
		want := e.dir
		if c.s == linked {
			want = sub
		}
		assert.Equal(t, want, recs[0].Workspace, "change %d (%s)", i, c.file)
	}
}
