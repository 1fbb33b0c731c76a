package txn_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

// fixture is a workspace with one file to replace (a.txt), one to delete (d.txt), and a staged
// new a.txt in its staging directory; the journal directory is beside it.
type fixture struct {
	ws, journals string
	ops          []txn.Op
	dir          *txn.Dir
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	stage := filepath.Join(ws, staging.Name("a.txt"))
	require.NoError(t, os.MkdirAll(stage, 0o700))
	write(t, filepath.Join(ws, "a.txt"), "old")
	write(t, filepath.Join(ws, "d.txt"), "gone")
	write(t, filepath.Join(stage, "a.txt.tmp"), "new")
	pre, err := txn.IDOf(filepath.Join(ws, "a.txt"))
	require.NoError(t, err)
	dpre, err := txn.IDOf(filepath.Join(ws, "d.txt"))
	require.NoError(t, err)
	d, err := txn.Open(filepath.Join(root, "txn"), ws)
	require.NoError(t, err)
	return fixture{ws: ws, journals: filepath.Join(root, "txn"), dir: d, ops: []txn.Op{
		{Kind: txn.OpPut, Target: filepath.Join(ws, "a.txt"), Staged: filepath.Join(stage, "a.txt.tmp"), Dir: stage, Pre: pre},
		{Kind: txn.OpDelete, Target: filepath.Join(ws, "d.txt"), Pre: dpre},
	}}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
}

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			out[rel] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	}))
	return out
}

func TestRecoverRollsBackAnUnpublishedSet(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	j.Release() // the process "dies" before publishing
	fwd, back := f.dir.Recover(nil)
	require.Equal(t, [2]int{0, 1}, [2]int{fwd, back})
	require.Equal(t, map[string]string{"a.txt": "old", "d.txt": "gone"}, tree(t, f.ws))
	requireNoJournal(t, f.journals)
}

func TestRecoverRollsForwardAPublishingSet(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	j.Release()
	fwd, back := f.dir.Recover(nil)
	require.Equal(t, [2]int{1, 0}, [2]int{fwd, back})
	require.Equal(t, map[string]string{"a.txt": "new"}, tree(t, f.ws))
	requireNoJournal(t, f.journals)
	// A second recovery finds nothing.
	fwd, back = f.dir.Recover(nil)
	require.Equal(t, [2]int{0, 0}, [2]int{fwd, back})
}

func TestRecoverFinishesAPartlyPublishedSet(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	require.NoError(t, os.Rename(f.ops[0].Staged, f.ops[0].Target)) // the first step happened
	j.Release()
	f.dir.Recover(nil)
	require.Equal(t, map[string]string{"a.txt": "new"}, tree(t, f.ws))
}

func TestRecoverLeavesFilesChangedSince(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	j.Release()
	// After the crash, someone replaced both files.
	for _, name := range []string{"a.txt", "d.txt"} {
		p := filepath.Join(f.ws, name)
		require.NoError(t, os.Remove(p))
		write(t, p, "theirs")
	}
	f.dir.Recover(nil)
	require.Equal(t, map[string]string{"a.txt": "theirs", "d.txt": "theirs"}, tree(t, f.ws))
	requireNoJournal(t, f.journals)
}

func TestRecoverSkipsALiveSet(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	fwd, back := f.dir.Recover(nil)
	require.Equal(t, [2]int{0, 0}, [2]int{fwd, back}, "its process holds the lock")
	require.Len(t, journals(t, f.journals), 1)
	j.Done()
	requireNoJournal(t, f.journals)
}

func TestRecoverDropsATornPlan(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(f.journals, "1.x.journal"), []byte(`{"ops":[{"op":"put"`), 0o600))
	_, back := f.dir.Recover(nil)
	require.Equal(t, 1, back)
	requireNoJournal(t, f.journals)
	require.Equal(t, "old", tree(t, f.ws)["a.txt"], "nothing is redone from a torn plan")
}

func TestNoJournalDirectoryJournalsNothing(t *testing.T) {
	var d *txn.Dir
	j, err := d.Begin(nil)
	require.NoError(t, err)
	require.Nil(t, j)
	require.NoError(t, j.Publishing())
	j.Done()
}

// journals lists the journal directory's entries other than its key.
func journals(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.Name() != "journal.key" {
			out = append(out, e.Name())
		}
	}
	return out
}

func requireNoJournal(t *testing.T, dir string) {
	t.Helper()
	require.Empty(t, journals(t, dir))
}
