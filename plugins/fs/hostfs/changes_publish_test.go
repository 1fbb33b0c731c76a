package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// A change set reports every file it publishes through the publish hook, under its locks: the
// prior bytes and what replaces them, a removal for a deleted file and a moved file's source.
func TestApplyChangesReportsEveryFile(t *testing.T) {
	p, dir := newProvider(t)
	var r reported
	p.SetPublishHook(hook(&r, true))
	writeFile(t, filepath.Join(dir, "u.txt"), "\ufeffa\r\n")
	writeFile(t, filepath.Join(dir, "d.txt"), "gone\n")
	writeFile(t, filepath.Join(dir, "m.txt"), "move me\n")
	dest := resolve(t, p, "moved.txt")
	outs, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "new.txt"), Content: "fresh\n"},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u.txt"), Update: upper},
		{Kind: fs.ChangeDelete, Target: resolve(t, p, "d.txt")},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "m.txt"), MoveTo: &dest, Update: upper},
	})
	require.NoError(t, err)

	byKey := map[string][]fs.PublishArgs{}
	for _, a := range r.args {
		byKey[filepath.Base(string(a.Target.Key))] = append(byKey[filepath.Base(string(a.Target.Key))], a)
	}
	require.Len(t, byKey, 5)
	for name, as := range byKey {
		require.Len(t, as, 2, name)
		assert.Equal(t, fs.PublishBefore, as[0].Phase, name)
		assert.Equal(t, fs.PublishDone, as[1].Phase, name)
	}
	assert.Nil(t, byKey["new.txt"][0].Prior)
	assert.Equal(t, "fresh\n", byKey["new.txt"][0].After)
	assert.Equal(t, outs[0].Version, byKey["new.txt"][1].Version)
	assert.Equal(t, "A\r\n", byKey["u.txt"][0].After)
	assert.True(t, byKey["u.txt"][0].AfterBOM)
	assert.Equal(t, fs.VerbEdit, byKey["u.txt"][0].Verb)
	assert.True(t, byKey["d.txt"][0].Removed)
	assert.Equal(t, fs.Version(""), byKey["d.txt"][1].Version)
	assert.True(t, byKey["m.txt"][0].Removed)
	assert.Equal(t, "MOVE ME\n", byKey["moved.txt"][0].After)
	assert.Equal(t, outs[3].Version, byKey["moved.txt"][1].Version)
	assert.ElementsMatch(t, []string{"", "\ufeffa\r\n", "gone\n", "move me\n", ""}, r.prior)

	r = reported{}
	_, err = p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "other.txt"), Content: "x\n"},
		{Kind: fs.ChangeDelete, Target: resolve(t, p, "d.txt")},
	})
	require.Error(t, err)
	assert.Empty(t, r.phases, "a refused set reports nothing")
	requireClean(t, p, dir)
}

// recheck records what a provider asks it and answers with err.
type recheck struct {
	calls []string
	err   error
}

func (c *recheck) Write(_ fs.Version, text string) error {
	c.calls = append(c.calls, "write "+text)
	return c.err
}

func (c *recheck) Edit(_ fs.Version, text string, touched []fs.LineRange) ([]fs.LineRange, error) {
	c.calls = append(c.calls, "edit "+text)
	return nil, c.err
}

// A guard whose version moved is decided by its Recheck, as edit (an update) or write (a delete,
// an add over a file) decide it, before anything is staged; a refusal changes nothing and keeps
// the Recheck's guidance under the change's own first line.
func TestApplyChangesRecheck(t *testing.T) {
	for name, refuse := range map[string]bool{"lands": false, "refused": true} {
		t.Run(name, func(t *testing.T) {
			p, dir := newProvider(t)
			for _, n := range []string{"u.txt", "d.txt", "w.txt"} {
				writeFile(t, filepath.Join(dir, n), n+"\r\n")
			}
			before := readAll(t, dir)
			rc := &recheck{}
			if refuse {
				rc.err = fs.NewError(fs.CodeStaleVersion, "cannot write: changed", &fs.Guidance{Text: "what changed"})
			}
			changes := []fs.Change{
				{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u.txt"), Guard: &fs.EditGuard{Version: "v0", Recheck: rc}, Update: upper},
				{Kind: fs.ChangeWrite, Target: resolve(t, p, "w.txt"), Intent: &fs.WriteIntent{Kind: fs.IntentReplaceIfVersion, Version: "v0", Recheck: rc}, Content: "W\n"},
				{Kind: fs.ChangeDelete, Target: resolve(t, p, "d.txt"), Guard: &fs.EditGuard{Version: "v0", Recheck: rc}},
			}
			if refuse {
				changes = changes[2:]
			}
			_, err := p.ApplyChanges(context.Background(), changes)
			if refuse {
				require.Error(t, err)
				assert.Equal(t, `cannot delete "`+filepath.Join(dir, "d.txt")+`": file changed since it was read`, err.Error())
				var g *fs.Guidance
				require.ErrorAs(t, err, &g)
				assert.Equal(t, "what changed", g.Text)
				assert.Equal(t, []string{"write d.txt\r\n"}, rc.calls)
				assert.Equal(t, before, readAll(t, dir))
				requireClean(t, p, dir)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"edit u.txt\r\n", "write w.txt\r\n", "write d.txt\r\n"}, rc.calls)
			assert.Equal(t, map[string]string{"u.txt": "U.TXT\r\n", "w.txt": "W\n"}, readAll(t, dir))
			_, err = os.Stat(filepath.Join(dir, "d.txt"))
			assert.True(t, os.IsNotExist(err))
		})
	}
}

// A file a committed set fails to rename is reported failed (it is as it was until the next start
// finishes the set); the others are reported done.
func TestApplyChangesReportsAFileItFailedToPublish(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	p, dir := newProvider(t)
	var r reported
	p.SetPublishHook(hook(&r, true))
	var set []fs.Change
	for _, n := range []string{"a.txt", "b.txt"} {
		writeFile(t, filepath.Join(dir, n), n+"\n")
		set = append(set, fs.Change{Kind: fs.ChangeUpdate, Target: resolve(t, p, n), Update: upper})
	}
	hostfs.SetRename(p, func(o, n string) error {
		if filepath.Base(n) == "b.txt" {
			return &os.LinkError{Op: "rename", Old: o, New: n, Err: syscall.EIO}
		}
		return os.Rename(o, n)
	})
	_, err := p.ApplyChanges(context.Background(), set)
	require.True(t, fs.HasCode(err, fs.CodeIOError), "%v", err)
	phases := map[string][]fs.PublishPhase{}
	for _, a := range r.args {
		phases[filepath.Base(string(a.Target.Key))] = append(phases[filepath.Base(string(a.Target.Key))], a.Phase)
	}
	assert.Equal(t, map[string][]fs.PublishPhase{
		"a.txt": {fs.PublishBefore, fs.PublishDone},
		"b.txt": {fs.PublishBefore, fs.PublishFailed},
	}, phases)
}

// docs/apply_patch.md "All or nothing": a file the set creates that another writer created since
// the check is kept, never replaced: the creation fails (before: the set renamed over it and the
// other write was lost).
func TestApplyChangesCreationNeverReplacesAFileThatAppeared(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	p, dir := newProvider(t)
	theirs := filepath.Join(dir, "nd", "sub", "x.txt")
	hostfs.SetPublishStep(p, func(n int) {
		if n == 1 {
			writeFile(t, theirs, "theirs\n")
		}
	})
	_, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "a.txt"), Content: "a\n"},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "nd/sub/x.txt"), Content: "patch\n"},
	})
	require.Error(t, err)
	assert.Equal(t, `cannot overwrite existing "`+theirs+`" without reading it first`, err.Error())
	assert.True(t, fs.HasCode(err, fs.CodeNotObserved), "%v", err)
	b, rerr := os.ReadFile(theirs)
	require.NoError(t, rerr)
	assert.Equal(t, "theirs\n", string(b), "the other writer's file is kept")
}

// The directories a set creates for a new file are flock(2)ed until its publication, as the lock
// paths lock an existing parent: a write that finds nd/sub (and so locks it, not the ancestor the
// set holds) waits for the set instead of racing it (docs/apply_patch.md "All or nothing").
func TestApplyChangesLocksTheDirectoriesItCreates(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	p, dir := newProvider(t)
	held := map[int]error{}
	hostfs.SetPublishStep(p, func(n int) {
		fd, err := syscall.Open(filepath.Join(dir, "nd", "sub"), syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		require.NoError(t, err)
		defer syscall.Close(fd)
		held[n] = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	})
	_, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "nd/sub/x.txt"), Content: "patch\n"},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "a.txt"), Content: "a\n"},
	})
	require.NoError(t, err)
	require.Len(t, held, 2)
	for n, err := range held {
		assert.ErrorIs(t, err, syscall.EWOULDBLOCK, "step %d: the new directory was not locked", n)
	}
}
