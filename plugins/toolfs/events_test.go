package toolfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// observerModule records every fs/* dispatch into the env's operation log and checks that the
// actor is the call's execution. In a bare deployment it also sees the intent waterfalls (it passes
// them on to the default).
func observerModule(t *testing.T, e *env) kernel.Module {
	return kernel.Module{ID: "fs-observer", Apply: func(kc *kernel.Context, _ any) error {
		checkActor := func(actor any) {
			exec, ok := actor.(*tools.Exec)
			if assert.True(t, ok, "actor is %T", actor) {
				assert.Same(t, e.session, exec.Session)
			}
		}
		if _, err := fs.WriteIntentEvent.On(kc, func(_ context.Context, p fs.IntentArgs, next func() (*fs.WriteIntent, error)) (*fs.WriteIntent, error) {
			checkActor(p.Actor)
			e.fsys.record("write-intent")
			return next()
		}); err != nil {
			return err
		}
		if _, err := fs.EditIntentEvent.On(kc, func(_ context.Context, p fs.IntentArgs, next func() (*fs.EditGuard, error)) (*fs.EditGuard, error) {
			checkActor(p.Actor)
			e.fsys.record("edit-intent")
			return next()
		}); err != nil {
			return err
		}
		_, err := fs.ObservedEvent.On(kc, func(_ context.Context, p fs.ObservedArgs) error {
			checkActor(p.Actor)
			if p.Observation.Kind == fs.ObservedPresent {
				assert.NotEmpty(t, p.Observation.Version)
			}
			e.fsys.record("observed:" + string(p.Observation.Kind))
			return nil
		})
		return err
	}}
}

func TestEventAndCallOrder(t *testing.T) {
	for _, bare := range []bool{true, false} {
		e := newEnv(t, envOptions{bare: bare})
		kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, observerModule(t, e), nil))
		require.NoError(t, os.Mkdir(e.path("dir"), 0o755))
		e.writeFile(t, "a.txt", "hello world")

		intent := func(name string) []string {
			if bare {
				return []string{name}
			}
			return nil // the policy decides and never delegates
		}
		seq := func(parts ...[]string) []string {
			var out []string
			for _, p := range parts {
				out = append(out, p...)
			}
			return out
		}

		requireOK(t, e.call("read", args{"file_path": "a.txt"}))
		assert.Equal(t, []string{"resolve", "stat", "readText", "observed:present"}, e.fsys.take())

		require.True(t, e.call("read", args{"file_path": "missing.txt"}).IsError)
		// The closest names of a missing path: a search below its folder, after the observation.
		assert.Equal(t, []string{"resolve", "stat", "observed:absent", "resolve", "glob"}, e.fsys.take())

		require.True(t, e.call("read", args{"file_path": "dir"}).IsError)
		assert.Equal(t, []string{"resolve", "stat"}, e.fsys.take())

		require.True(t, e.call("read", args{"file_path": "a.txt", "offset": 9}).IsError)
		assert.Equal(t, []string{"resolve", "stat", "readText"}, e.fsys.take(), "out of range records nothing")

		requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "world", "new_string": "there"}))
		editOp := "editText(nil)"
		if !bare {
			editOp = "editText(guard)"
		}
		assert.Equal(t, seq([]string{"resolve"}, intent("edit-intent"), []string{editOp, "observed:present"}), e.fsys.take())

		requireOK(t, e.call("write", args{"file_path": "new.txt", "content": "x"}))
		writeOp := "writeText(nil)"
		if !bare {
			writeOp = "writeText(createIfAbsent)"
		}
		assert.Equal(t, seq([]string{"resolve"}, intent("write-intent"), []string{writeOp, "observed:present"}), e.fsys.take())
	}
}

func TestReadRecordsTheStatVersion(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "hello")
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	target, err := e.fsys.Resolve(context.Background(), e.path("a.txt"), fs.ResolveOptions{})
	require.NoError(t, err)
	info, err := e.fsys.Stat(context.Background(), target)
	require.NoError(t, err)
	requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "hello", "new_string": "bye"}))
	assert.Equal(t, info.Version, e.fsys.lastGuard)
}

func TestStatBudget(t *testing.T) {
	for _, bare := range []bool{false, true} {
		e := newEnv(t, envOptions{bare: bare})
		e.writeFile(t, "a.txt", "hello world")
		requireOK(t, e.call("read", args{"file_path": "a.txt"}))
		assert.Equal(t, 1, e.fsys.count("stat"))
		e.fsys.take()
		requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "world", "new_string": "there"}))
		requireOK(t, e.call("write", args{"file_path": "a.txt", "content": "fresh"}))
		assert.Zero(t, e.fsys.count("stat"))
		require.True(t, e.call("read", args{"file_path": "missing.txt"}).IsError)
		assert.Equal(t, 1, e.fsys.count("stat"))
		e.fsys.take()
		requireOK(t, e.call("write", args{"file_path": "missing.txt", "content": "fresh"}))
		assert.Zero(t, e.fsys.count("stat"))
	}
}

func TestThrowingObserverFailsCommittedWrite(t *testing.T) {
	e := newEnv(t, envOptions{})
	bug := kernel.Module{ID: "buggy-recorder", Apply: func(kc *kernel.Context, _ any) error {
		_, err := fs.ObservedEvent.On(kc, func(context.Context, fs.ObservedArgs) error { return errors.New("recording bug") })
		return err
	}}
	kerneltest.RequireActive(t, kerneltest.RequireLoad(t, e.root, bug, nil))
	r := e.call("write", args{"file_path": "w.txt", "content": "durable"})
	require.True(t, r.IsError)
	assert.Contains(t, r.Text(), "recording bug")
	assert.Equal(t, "durable", e.readFile(t, "w.txt"))
	// For a missing read, the listener's failure replaces FS_NOT_FOUND.
	r = e.call("read", args{"file_path": "missing.txt"})
	require.True(t, r.IsError)
	assert.Contains(t, r.Text(), "recording bug")
}

// Two sessions read the same version and edit concurrently: exactly one edit lands and the other is
// stale, whichever runs first. (Two edits of one session could run one after the other, and the
// second would then be guarded by the version the first wrote: that is not a lost update.)
func TestConcurrentEditsOneWins(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "base value here")
	sessions := []*tools.Session{e.session, tools.NewSession("other")}
	for _, s := range sessions {
		requireOK(t, e.callIn(s, "read", args{"file_path": "a.txt"}))
	}
	var wg sync.WaitGroup
	results := make([]tools.Result, 2)
	for i, a := range []args{
		{"file_path": "a.txt", "old_string": "base", "new_string": "ONE"},
		{"file_path": "a.txt", "old_string": "value", "new_string": "TWO"},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = e.rt.Execute(context.Background(), tools.Call{CallID: "c" + strconv.Itoa(i), Name: "edit", Args: a, Session: sessions[i]})
		}()
	}
	wg.Wait()
	failed := 0
	for _, r := range results {
		if r.IsError {
			failed++
			assert.Equal(t, "FS_STALE_VERSION", r.Code())
		}
	}
	assert.Equal(t, 1, failed)
	onDisk := e.readFile(t, "a.txt")
	assert.Contains(t, []string{"ONE value here", "base TWO here"}, onDisk)
}

func TestSessionCwd(t *testing.T) {
	e := newEnv(t, envOptions{})
	sessionDir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	s := tools.NewSession("s2")
	s.SetHeader(tools.Header{Cwd: sessionDir})

	r := e.callIn(s, "write", args{"file_path": "note.txt", "content": "hi"})
	requireOK(t, r)
	b, err := os.ReadFile(filepath.Join(sessionDir, "note.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hi", string(b))
	_, err = os.Stat(e.path("note.txt"))
	assert.True(t, os.IsNotExist(err), "the provider cwd is not used when the session has one")

	require.NoError(t, os.WriteFile(filepath.Join(sessionDir, "code.txt"), []byte("alpha"), 0o644))
	requireOK(t, e.callIn(s, "read", args{"file_path": "code.txt"}))
	requireOK(t, e.callIn(s, "edit", args{"file_path": "code.txt", "old_string": "alpha", "new_string": "beta"}))
	b, err = os.ReadFile(filepath.Join(sessionDir, "code.txt"))
	require.NoError(t, err)
	assert.Equal(t, "beta", string(b))

	// A symlinked cwd keeps its spelling, unless the path climbs out with "..": then the parent
	// is the physical one, as a shell sees it.
	physical := filepath.Join(sessionDir, "physical", "sub")
	require.NoError(t, os.MkdirAll(physical, 0o755))
	link := filepath.Join(sessionDir, "link")
	require.NoError(t, os.Symlink(physical, link))
	require.NoError(t, os.WriteFile(filepath.Join(physical, "child.txt"), []byte("child"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sessionDir, "physical", "parent.txt"), []byte("physical parent"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sessionDir, "parent.txt"), []byte("lexical parent"), 0o644))
	s.SetHeader(tools.Header{Cwd: link})

	r = e.callIn(s, "read", args{"file_path": "child.txt"})
	requireOK(t, r)
	assert.Equal(t, envelope(filepath.Join(link, "child.txt"), "1: child\n\n"+endOf(1)), r.Text())
	r = e.callIn(s, "read", args{"file_path": "../parent.txt"})
	requireOK(t, r)
	assert.Equal(t, envelope(filepath.Join(sessionDir, "physical", "parent.txt"), "1: physical parent\n\n"+endOf(1)), r.Text())
	s.SetHeader(tools.Header{Cwd: link + "/.."})
	r = e.callIn(s, "read", args{"file_path": "parent.txt"})
	requireOK(t, r)
	assert.Contains(t, r.Text(), "1: physical parent")
}
