package txn_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/internal/statedir"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

// refusedLog returns a logger and the function that counts its refusal lines.
func refusedLog() (*zap.Logger, func() int) {
	core, logs := observer.New(zapcore.WarnLevel)
	return zap.New(core), func() int {
		return logs.FilterMessageSnippet("refused a change-set journal").Len()
	}
}

// aside lists the journals set aside in dir.
func aside(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range journals(t, dir) {
		if strings.HasSuffix(name, ".refused") {
			out = append(out, name)
		}
	}
	return out
}

// TestRecoverRefusesAJournalWithoutItsMAC: a plan Cordon did not sign (here in the format of the
// journals before they were signed) is set aside and logged; nothing it names is touched
// (docs/journal-threat-model.md).
func TestRecoverRefusesAJournalWithoutItsMAC(t *testing.T) {
	f := newFixture(t)
	victim := filepath.Join(t.TempDir(), "victim")
	write(t, victim, "keep")
	pre, err := txn.IDOf(victim)
	require.NoError(t, err)
	plan, err := json.Marshal(map[string]any{"ws": f.ws, "ops": []txn.Op{{Kind: txn.OpDelete, Target: victim, Pre: pre}, f.ops[1]}})
	require.NoError(t, err)
	for i, body := range []string{string(plan) + "\n\"publish\"\n", strings.Repeat("0", 64) + " " + string(plan) + "\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(f.journals, "1.x"+string(rune('a'+i))+".journal"), []byte(body), 0o600))
	}
	log, refused := refusedLog()
	fwd, back := f.dir.Recover(log)
	require.Equal(t, [2]int{0, 0}, [2]int{fwd, back})
	require.Equal(t, 2, refused())
	require.Len(t, aside(t, f.journals), 2)
	require.FileExists(t, victim)
	require.Equal(t, "gone", tree(t, f.ws)["d.txt"])
	fwd, back = f.dir.Recover(log)
	require.Equal(t, [2]int{0, 0}, [2]int{fwd, back}, "a journal set aside is never read again")
	require.Equal(t, 2, refused())
}

// TestRecoverRefusesASignedJournalOutsideItsWorkspace: even signed (a key that leaked), a plan
// whose paths are not this workspace's staging paths and targets is refused whole.
func TestRecoverRefusesASignedJournalOutsideItsWorkspace(t *testing.T) {
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "victim")
	write(t, victim, "keep")
	pre, err := txn.IDOf(victim)
	require.NoError(t, err)
	for name, op := range map[string]txn.Op{
		"delete outside":  {Kind: txn.OpDelete, Target: victim, Pre: pre},
		"foreign staging": {Kind: txn.OpPut, Target: filepath.Join(victimDir, "x"), Staged: filepath.Join(victimDir, "x"), Dir: victimDir},
		"dotdot":          {Kind: txn.OpDelete, Target: "/ws/../" + victim},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			j, err := f.dir.Begin([]txn.Op{f.ops[1], op})
			require.NoError(t, err)
			require.NoError(t, j.Publishing())
			j.Release()
			log, refused := refusedLog()
			f.dir.Recover(log)
			require.Equal(t, 1, refused())
			require.Len(t, aside(t, f.journals), 1)
			require.FileExists(t, victim)
			require.DirExists(t, victimDir)
			require.Equal(t, "gone", tree(t, f.ws)["d.txt"], "nothing of a refused plan runs")
		})
	}
}

// TestRecoverRefusesNonRegularJournalsWithoutBlocking: a FIFO, a symlink and a directory named
// like a journal are set aside; the FIFO does not block recovery.
func TestRecoverRefusesNonRegularJournalsWithoutBlocking(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(f.journals, "1.fifo.journal"), 0o600))
	require.NoError(t, os.Symlink(filepath.Join(f.ws, "a.txt"), filepath.Join(f.journals, "1.link.journal")))
	require.NoError(t, os.Mkdir(filepath.Join(f.journals, "1.dir.journal"), 0o700))
	log, refused := refusedLog()
	done := make(chan struct{})
	go func() {
		f.dir.Recover(log)
		close(done)
	}()
	<-done // a FIFO opened for reading without O_NONBLOCK would block here for good
	require.Equal(t, 3, refused())
	require.Len(t, aside(t, f.journals), 3)
	require.Equal(t, "old", tree(t, f.ws)["a.txt"])
}

// TestRecoverRefusesAJournalOthersCanWrite: a signed journal whose mode lets another user write
// it is not trusted.
func TestRecoverRefusesAJournalOthersCanWrite(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	j.Release()
	names := journals(t, f.journals)
	require.Len(t, names, 1)
	require.NoError(t, os.Chmod(filepath.Join(f.journals, names[0]), 0o666))
	log, refused := refusedLog()
	f.dir.Recover(log)
	require.Equal(t, 1, refused())
	require.Equal(t, "old", tree(t, f.ws)["a.txt"])
}

// TestRecoverRefusesAJournalOfAnotherUser: a journal (even signed) owned by another uid is set
// aside, never run by this one (run as root: the file is given to uid 65534).
func TestRecoverRefusesAJournalOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another uid")
	}
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	require.NoError(t, j.Publishing())
	j.Release()
	names := journals(t, f.journals)
	require.Len(t, names, 1)
	require.NoError(t, os.Chown(filepath.Join(f.journals, names[0]), 65534, 65534))
	log, refused := refusedLog()
	f.dir.Recover(log)
	require.Equal(t, 1, refused())
	require.Equal(t, map[string]string{"a.txt": "old", "d.txt": "gone", filepath.Base(f.ops[0].Dir): "/", filepath.Join(filepath.Base(f.ops[0].Dir), "a.txt.tmp"): "new"}, tree(t, f.ws))
}

// TestOpenRefusesADirectoryAnotherUserCanWrite: the journal directory is created 0700 and refused
// when another user can write it or owns it.
func TestOpenRefusesADirectoryAnotherUserCanWrite(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "txn")
	_, err := txn.Open(dir, root)
	require.NoError(t, err)
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	key, err := os.Stat(filepath.Join(dir, "journal.key"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), key.Mode().Perm())

	require.NoError(t, os.Chmod(dir, 0o777))
	_, err = txn.Open(dir, root)
	require.ErrorIs(t, err, statedir.ErrRefused)
	require.NoError(t, os.Chmod(dir, 0o700))

	require.NoError(t, os.Chmod(filepath.Join(dir, "journal.key"), 0o644))
	_, err = txn.Open(dir, root)
	require.ErrorIs(t, err, statedir.ErrRefused, "a key others can read is no secret")
	require.NoError(t, os.Chmod(filepath.Join(dir, "journal.key"), 0o600))

	if os.Geteuid() == 0 {
		require.NoError(t, os.Chown(dir, 65534, 65534))
		_, err = txn.Open(dir, root)
		require.ErrorIs(t, err, statedir.ErrRefused)
	}
}

// TestRecoverLeavesAnotherWorkspacesJournal: a signed journal of another workspace is left for
// that workspace's next start.
func TestRecoverLeavesAnotherWorkspacesJournal(t *testing.T) {
	f := newFixture(t)
	j, err := f.dir.Begin(f.ops)
	require.NoError(t, err)
	j.Release()
	other, err := txn.Open(f.journals, t.TempDir())
	require.NoError(t, err)
	log, refused := refusedLog()
	fwd, back := other.Recover(log)
	require.Equal(t, [2]int{0, 0}, [2]int{fwd, back})
	require.Zero(t, refused())
	require.Len(t, journals(t, f.journals), 1)
	_, back = f.dir.Recover(log)
	require.Equal(t, 1, back)
}

// TestRollbackRemovesTheDirectoriesTheSetMade: a set rolled back after its process died removes
// the directories it created for its new files (journaled as MadeFrom), while they are empty.
func TestRollbackRemovesTheDirectoriesTheSetMade(t *testing.T) {
	f := newFixture(t)
	parent := filepath.Join(f.ws, "nd", "sub")
	stage := filepath.Join(parent, staging.Name("x.txt"))
	require.NoError(t, os.MkdirAll(stage, 0o700))
	write(t, filepath.Join(stage, "x.txt.tmp"), "new")
	keep := filepath.Join(f.ws, "kd", "sub")
	kstage := filepath.Join(keep, staging.Name("y.txt"))
	require.NoError(t, os.MkdirAll(kstage, 0o700))
	write(t, filepath.Join(kstage, "y.txt.tmp"), "new")
	j, err := f.dir.Begin([]txn.Op{
		{Kind: txn.OpPut, Target: filepath.Join(parent, "x.txt"), Staged: filepath.Join(stage, "x.txt.tmp"), Dir: stage, MadeFrom: f.ws},
		{Kind: txn.OpPut, Target: filepath.Join(keep, "y.txt"), Staged: filepath.Join(kstage, "y.txt.tmp"), Dir: kstage, MadeFrom: f.ws},
	})
	require.NoError(t, err)
	j.Release()
	write(t, filepath.Join(f.ws, "kd", "theirs.txt"), "since") // written there since: kd stays
	_, back := f.dir.Recover(nil)
	require.Equal(t, 1, back)
	require.Equal(t, map[string]string{"a.txt": "old", "d.txt": "gone", "kd": "/", "kd/theirs.txt": "since",
		filepath.Base(f.ops[0].Dir): "/", filepath.Join(filepath.Base(f.ops[0].Dir), "a.txt.tmp"): "new"}, tree(t, f.ws))
}
