package hostfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/txn"
)

func upper(text string) (string, error) { return strings.ToUpper(text), nil }

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	}))
	return out
}

func TestApplyChangesPublishesEveryKind(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "u.txt"), "\ufeffa\r\nb\r\n")
	writeFile(t, filepath.Join(dir, "d.txt"), "gone\n")
	writeFile(t, filepath.Join(dir, "m.txt"), "move me\n")
	require.NoError(t, os.Chmod(filepath.Join(dir, "u.txt"), 0o600))
	dest := resolve(t, p, "sub/moved.txt")
	outs, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "new/a.txt"), Intent: fs.CreateIfAbsent(), Content: "fresh\n"},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u.txt"), Update: upper},
		{Kind: fs.ChangeDelete, Target: resolve(t, p, "d.txt")},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "m.txt"), MoveTo: &dest, Update: upper},
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{
		"new/a.txt":     "fresh\n",
		"u.txt":         "\ufeffA\r\nB\r\n", // BOM and CRLF kept: Update sees the bytes after the BOM
		"sub/moved.txt": "MOVE ME\n",
	}, readAll(t, dir))
	fi, err := os.Stat(filepath.Join(dir, "u.txt"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the replaced file's mode is kept")
	require.Len(t, outs, 4)
	require.Equal(t, []fs.Operation{fs.OperationCreate, fs.OperationUpdate, fs.OperationDelete, fs.OperationUpdate},
		[]fs.Operation{outs[0].Operation, outs[1].Operation, outs[2].Operation, outs[3].Operation})
	require.Equal(t, "a\nb\n", *outs[1].Before)
	require.Equal(t, "A\nB\n", *outs[1].After)
	require.Equal(t, "gone\n", *outs[2].Before)
	require.Equal(t, dest, outs[3].Target)
	info, err := p.Stat(context.Background(), dest)
	require.NoError(t, err)
	require.Equal(t, info.Version, outs[3].Version)
	requireClean(t, p, dir)
}

// TestApplyChangesAllOrNothing: any failure, whichever file raises it, leaves every file as it was
// and nothing behind.
func TestApplyChangesAllOrNothing(t *testing.T) {
	errBoom := errors.New("boom")
	for name, c := range map[string]struct {
		last fs.Change
		code fs.Code
		is   error
	}{
		"update fails":      {last: fs.Change{Kind: fs.ChangeUpdate, Target: fs.Target{}, Update: func(string) (string, error) { return "", errBoom }}, is: errBoom},
		"stale guard":       {last: fs.Change{Kind: fs.ChangeUpdate, Guard: &fs.EditGuard{Version: "v0"}, Update: upper}, code: fs.CodeStaleVersion},
		"unseen overwrite":  {last: fs.Change{Kind: fs.ChangeWrite, Intent: fs.CreateIfAbsent(), Content: "x"}, code: fs.CodeNotObserved},
		"delete stale":      {last: fs.Change{Kind: fs.ChangeDelete, Guard: &fs.EditGuard{Version: "v0"}}, code: fs.CodeStaleVersion},
		"cancelled context": {last: fs.Change{Kind: fs.ChangeUpdate, Update: upper}, code: fs.CodeAborted},
	} {
		t.Run(name, func(t *testing.T) {
			p, dir := newProvider(t)
			writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
			writeFile(t, filepath.Join(dir, "z.txt"), "z\n")
			before := readAll(t, dir)
			last := c.last
			last.Target = resolve(t, p, "z.txt")
			ctx := context.Background()
			if name == "cancelled context" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				last.Update = func(s string) (string, error) { cancel(); return s, nil }
			}
			_, err := p.ApplyChanges(ctx, []fs.Change{
				{Kind: fs.ChangeWrite, Target: resolve(t, p, "new/deep/n.txt"), Content: "n\n"},
				{Kind: fs.ChangeWrite, Target: resolve(t, p, "new/m.txt"), Content: "m\n"},
				{Kind: fs.ChangeUpdate, Target: resolve(t, p, "a.txt"), Update: upper},
				last,
			})
			require.Error(t, err)
			if c.is != nil {
				require.ErrorIs(t, err, c.is)
			} else {
				require.True(t, fs.HasCode(err, c.code), "%v", err)
			}
			require.Equal(t, before, readAll(t, dir))
			require.NoDirExists(t, filepath.Join(dir, "new"), "the directories made for new files are gone")
			requireClean(t, p, dir)
		})
	}
}

func TestApplyChangesRefusals(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	for name, c := range map[string]struct {
		changes []fs.Change
		msg     string
	}{
		"twice": {[]fs.Change{{Kind: fs.ChangeDelete, Target: resolve(t, p, "a.txt")}, {Kind: fs.ChangeWrite, Target: resolve(t, p, "a.txt")}},
			`cannot patch "` + filepath.Join(dir, "a.txt") + `": the patch changes it more than once`},
		"delete missing": {[]fs.Change{{Kind: fs.ChangeDelete, Target: resolve(t, p, "nope.txt")}},
			`cannot delete "` + filepath.Join(dir, "nope.txt") + `": file not found`},
		"delete directory": {[]fs.Change{{Kind: fs.ChangeDelete, Target: resolve(t, p, "sub")}},
			`cannot delete "` + filepath.Join(dir, "sub") + `": not a regular file`},
		"update missing": {[]fs.Change{{Kind: fs.ChangeUpdate, Target: resolve(t, p, "nope.txt"), Update: upper}},
			`cannot update "` + filepath.Join(dir, "nope.txt") + `": file not found`},
		"write over directory": {[]fs.Change{{Kind: fs.ChangeWrite, Target: resolve(t, p, "sub")}},
			`cannot write "` + filepath.Join(dir, "sub") + `": not a regular file`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := p.ApplyChanges(context.Background(), c.changes)
			require.EqualError(t, err, c.msg)
			require.Equal(t, "a\n", readAll(t, dir)["a.txt"])
			requireClean(t, p, dir)
		})
	}
}

// TestApplyChangesConfined: a target the confinement refuses refuses the set.
func TestApplyChangesConfined(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "in/a.txt"), "a\n")
	writeFile(t, filepath.Join(dir, "out/b.txt"), "b\n")
	root := filepath.Join(dir, "in")
	confine := func(_ context.Context, t fs.Target) (fs.Target, *hostfs.Beneath, error) {
		return t, &hostfs.Beneath{Root: root}, nil
	}
	_, err := p.ApplyChangesConfined(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "in/a.txt"), Update: upper},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "out/b.txt"), Update: upper},
	}, confine)
	require.ErrorIs(t, err, hostfs.ErrEscape)
	require.Equal(t, map[string]string{"in/a.txt": "a\n", "out/b.txt": "b\n"}, readAll(t, dir))
	_, err = p.ApplyChangesConfined(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "in/a.txt"), Update: upper},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "in/deep/c.txt"), Content: "c\n"},
	}, confine)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"in/a.txt": "A\n", "in/deep/c.txt": "c\n", "out/b.txt": "b\n"}, readAll(t, dir))
	requireClean(t, p, dir)
}

// TestApplyChangesOppositeOrdersDoNotDeadlock: sets naming the same files in opposite orders, and
// single-file edits of them, run concurrently to completion (locks are taken in key order).
func TestApplyChangesOppositeOrdersDoNotDeadlock(t *testing.T) {
	p, dir := newProvider(t)
	names := []string{"a.txt", "b.txt", "sub/c.txt"}
	for _, n := range names {
		writeFile(t, filepath.Join(dir, n), "x\n")
	}
	appendLine := func(s string) (string, error) { return s + "x\n", nil }
	done := make(chan error)
	const rounds = 8
	for g := range 4 {
		go func() {
			var err error
			for r := range rounds {
				if g == 3 {
					// x -> y, then y -> x: each finds its old string whatever the sets appended
					// between them (an x -> y twice in a row found none, and failed the test).
					req := fs.EditRequest{OldString: "x", NewString: "y", ReplaceAll: true}
					if r%2 == 1 {
						req.OldString, req.NewString = "y", "x"
					}
					_, err = p.EditText(context.Background(), resolve(t, p, "b.txt"), req, nil)
				} else {
					set := make([]fs.Change, len(names))
					for i := range names {
						n := names[(i+g)%len(names)]
						set[i] = fs.Change{Kind: fs.ChangeUpdate, Target: resolve(t, p, n), Update: appendLine}
					}
					_, err = p.ApplyChanges(context.Background(), set)
				}
				if err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range 4 {
		require.NoError(t, <-done)
	}
	got := readAll(t, dir)
	require.Equal(t, strings.Repeat("x\n", 1+3*rounds), got["a.txt"])
	require.Equal(t, 1+3*rounds, strings.Count(got["b.txt"], "\n"))
	requireClean(t, p, dir)
}

// TestApplyChangesWithoutAJournal: with no usable state directory a set still publishes (all or
// nothing in process; docs/apply_patch.md "The journal").
func TestApplyChangesWithoutAJournal(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	writeFile(t, blocker, "")
	t.Setenv("XDG_STATE_HOME", blocker) // a state directory beneath a regular file cannot be made
	p, dir := newProvider(t)
	_, err := p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeWrite, Target: resolve(t, p, "a.txt"), Content: "a\n"}})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a.txt": "a\n"}, readAll(t, dir))
	requireClean(t, p, dir)
}

// TestApplyChangesFailureAfterCommitIsFinishedAtTheNextStart: a rename that fails once the set
// is committed fails the call, the other files still publish, and the journal it leaves lets the
// next start finish the set.
func TestApplyChangesFailureAfterCommitIsFinishedAtTheNextStart(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	p, dir := newProvider(t)
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		writeFile(t, filepath.Join(dir, n), n+"\n")
	}
	hostfs.SetRename(p, func(o, n string) error {
		if filepath.Base(n) == "b.txt" {
			return &os.LinkError{Op: "rename", Old: o, New: n, Err: syscall.EIO}
		}
		return os.Rename(o, n)
	})
	set := []fs.Change{}
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		set = append(set, fs.Change{Kind: fs.ChangeUpdate, Target: resolve(t, p, n), Update: upper})
	}
	_, err := p.ApplyChanges(context.Background(), set)
	require.True(t, fs.HasCode(err, fs.CodeIOError), "%v", err)
	require.Equal(t, map[string]string{"a.txt": "A.TXT\n", "b.txt": "b.txt\n", "c.txt": "C.TXT\n"}, files(t, dir))
	require.Zero(t, hostfs.LockCount(p))

	journals, err := txn.Open(filepath.Join(state, "cordon", "txn"), dir)
	require.NoError(t, err)
	fwd, back := journals.Recover(nil) // what the next start runs
	require.Equal(t, [2]int{1, 0}, [2]int{fwd, back})
	require.Equal(t, map[string]string{"a.txt": "A.TXT\n", "b.txt": "B.TXT\n", "c.txt": "C.TXT\n"}, readAll(t, dir))
	requireClean(t, p, dir)
}

// files reads the regular files of dir, skipping staging directories.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			out[e.Name()] = string(b)
		}
	}
	return out
}
