package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return dir
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, n := range names {
		out = append(out, n.Name())
	}
	return out
}

func TestAtomicStagingLayout(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "note.txt")
	var stagingSeen, tempSeen string
	hooks := &atomicHooks{inspectTemp: func(staging, temp string) {
		stagingSeen, tempSeen = staging, temp
		fi, err := os.Stat(staging)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
		fi, err = os.Stat(temp)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "0666 under the umask 077")
		assert.Equal(t, []string{"note.txt.tmp"}, entries(t, staging))
	}}
	old := unix.Umask(0o077) // would strip group bits of a 0o750 mkdir
	err := writeFileAtomic(context.Background(), target, "hi", atomicOptions{keep: &keptMeta{uid: -1, gid: -1, mode: 0o644}, hooks: hooks})
	unix.Umask(old)
	require.NoError(t, err)
	pattern := `^\.note\.txt\.` + strconv.Itoa(os.Getpid()) + `\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.tmpdir$`
	assert.Regexp(t, regexp.MustCompile(pattern), filepath.Base(stagingSeen))
	assert.Equal(t, dir, filepath.Dir(stagingSeen), "staging is beside the target")
	assert.Equal(t, filepath.Join(stagingSeen, "note.txt.tmp"), tempSeen)
	assert.Equal(t, []string{"note.txt"}, entries(t, dir))
	fi, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "replaced-file bits applied")
}

func TestAtomicStagingNameCollision(t *testing.T) {
	dir := tempDir(t)
	taken := filepath.Join(dir, ".x.taken.tmpdir")
	require.NoError(t, os.Mkdir(taken, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(taken, "keep"), []byte("k"), 0o644))
	hooks := &atomicHooks{stagingName: func(string) string { return ".x.taken.tmpdir" }}
	err := writeFileAtomic(context.Background(), filepath.Join(dir, "x"), "v", atomicOptions{hooks: hooks})
	require.ErrorIs(t, err, unix.EEXIST)
	assert.Empty(t, fs.CodeOf(err), "raw OS error")
	b, err := os.ReadFile(filepath.Join(taken, "keep"))
	require.NoError(t, err)
	assert.Equal(t, "k", string(b), "existing directory left intact")
	assert.NoFileExists(t, filepath.Join(dir, "x"))
}

func TestAtomicGuardedCreateRaces(t *testing.T) {
	linkErr := &os.LinkError{Op: "link", Err: unix.EPERM}
	cases := []struct {
		name   string
		racer  func(t *testing.T, target string)
		hooks  func(h *atomicHooks)
		code   fs.Code
		msg    string
		kept   string // expected content of the racer's file ("" = none)
		isLink bool
	}{
		{"a regular file appears", func(t *testing.T, target string) {
			require.NoError(t, os.WriteFile(target, []byte("theirs"), 0o644))
		}, nil, fs.CodeNotObserved, `cannot overwrite existing "DISPLAY" without reading it first`, "theirs", false},
		{"a directory appears", func(t *testing.T, target string) {
			require.NoError(t, os.Mkdir(target, 0o755))
		}, nil, fs.CodeNotRegularFile, `cannot write "DISPLAY": not a regular file`, "", false},
		{"a dangling symlink appears", func(t *testing.T, target string) {
			require.NoError(t, os.Symlink("nowhere", target))
		}, nil, fs.CodeNotRegularFile, `cannot write "DISPLAY": not a regular file`, "", true},
		{"a live symlink to a file appears", func(t *testing.T, target string) {
			require.NoError(t, os.WriteFile(target+".real", []byte("r"), 0o644))
			require.NoError(t, os.Symlink(target+".real", target))
		}, nil, fs.CodeNotRegularFile, `cannot write "DISPLAY": not a regular file`, "", true},
		{"collision that vanished", nil, func(h *atomicHooks) {
			h.link = func(string, string) error { return &os.LinkError{Op: "link", Err: unix.EEXIST} }
		}, fs.CodeNotObserved, `cannot overwrite existing "DISPLAY" without reading it first`, "", false},
		{"no hard-link support", nil, func(h *atomicHooks) {
			h.link = func(string, string) error { return linkErr }
		}, fs.CodeIOError, `cannot write "DISPLAY": operation not permitted`, "", false},
		{"inspection fails", nil, func(h *atomicHooks) {
			h.link = func(string, string) error { return linkErr }
			h.lstat = func(p string) (os.FileInfo, error) { return nil, &os.PathError{Op: "lstat", Path: p, Err: unix.EACCES} }
		}, fs.CodeIOError, `cannot write "DISPLAY": permission denied`, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "new.txt")
			display := "/spelled/through/a/link/new.txt"
			h := &atomicHooks{}
			if tc.racer != nil {
				h.inspectTemp = func(string, string) { tc.racer(t, target) }
			}
			if tc.hooks != nil {
				tc.hooks(h)
			}
			err := writeFileAtomic(context.Background(), target, "mine", atomicOptions{createIfAbsent: true, display: display, hooks: h})
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.code, fe.Kind)
			want := regexp.MustCompile(`DISPLAY|TARGET`).ReplaceAllStringFunc(tc.msg, func(s string) string {
				if s == "DISPLAY" {
					return display
				}
				return target
			})
			assert.Equal(t, want, fe.Message, "messages use the display path")
			if tc.kept != "" {
				b, err := os.ReadFile(target)
				require.NoError(t, err)
				assert.Equal(t, tc.kept, string(b), "the racer's file is preserved")
			}
			if tc.isLink {
				fi, err := os.Lstat(target)
				require.NoError(t, err)
				assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
			}
			for _, n := range entries(t, dir) {
				assert.NotRegexp(t, `\.tmpdir$`, n)
			}
		})
	}
}

func TestAtomicRenameFailureIsRaw(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "t")
	h := &atomicHooks{inspectTemp: func(string, string) {
		require.NoError(t, os.Mkdir(target, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(target, "child"), nil, 0o644))
	}}
	err := writeFileAtomic(context.Background(), target, "x", atomicOptions{hooks: h})
	require.Error(t, err)
	var le *os.LinkError
	require.ErrorAs(t, err, &le)
	assert.Empty(t, fs.CodeOf(err))
	assert.Equal(t, []string{"t"}, entries(t, dir))
}

func TestAtomicCleanupFailures(t *testing.T) {
	cleanupErr := errors.New("device busy")
	t.Run("after a failure => double fault", func(t *testing.T) {
		dir := tempDir(t)
		var removed bool
		h := &atomicHooks{
			rename: func(string, string) error { return errors.New("rename broke") },
			removeAll: func(p string) error {
				removed = true
				require.NoError(t, os.RemoveAll(p))
				return cleanupErr
			},
		}
		err := writeFileAtomic(context.Background(), filepath.Join(dir, "t"), "x", atomicOptions{hooks: h})
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeNotFound, fe.Kind)
		assert.Equal(t, "write failed (rename broke) and temp cleanup failed (device busy)", fe.Message)
		assert.ErrorIs(t, err, cleanupErr)
		assert.True(t, removed)
	})
	t.Run("after an abort => double fault names the abort", func(t *testing.T) {
		dir := tempDir(t)
		ctx, cancel := context.WithCancel(context.Background())
		h := &atomicHooks{
			inspectTemp: func(string, string) { cancel() },
			removeAll:   func(p string) error { _ = os.RemoveAll(p); return cleanupErr },
		}
		err := writeFileAtomic(ctx, filepath.Join(dir, "t"), "x", atomicOptions{hooks: h})
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, "write failed (write aborted) and temp cleanup failed (device busy)", fe.Message)
	})
	t.Run("after publication => ignored, logged", func(t *testing.T) {
		dir := tempDir(t)
		h := &atomicHooks{removeAll: func(string) error { return cleanupErr }}
		target := filepath.Join(dir, "t")
		core, logs := observer.New(zap.WarnLevel)
		require.NoError(t, writeFileAtomic(context.Background(), target, "x", atomicOptions{hooks: h, log: zap.New(core)}))
		assert.Equal(t, 1, logs.FilterMessage("staging directory left behind after a committed write").Len())
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Equal(t, "x", string(b))
	})
}

func TestAtomicPanicRemovesStaging(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "t")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	h := &atomicHooks{inspectTemp: func(string, string) { panic("boom") }}
	func() {
		defer func() { assert.Equal(t, "boom", recover()) }()
		_ = writeFileAtomic(context.Background(), target, "new", atomicOptions{hooks: h})
	}()
	assert.Equal(t, []string{"t"}, entries(t, dir))
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
}

func TestProviderPanicReleasesLock(t *testing.T) {
	// WriteText and EditText release with defer, so a panic under the lock
	// (say, in a future hook) still empties the table.
	var l lockTable
	func() {
		defer func() { _ = recover() }()
		release, err := l.acquire(context.Background(), "k", fs.VerbWrite)
		require.NoError(t, err)
		defer release()
		panic("boom")
	}()
	assert.Zero(t, l.len())
}

func TestLockWaitIsCancellable(t *testing.T) {
	dir := tempDir(t)
	p, err := New(Config{Cwd: dir}, nil)
	require.NoError(t, err)
	tg := fs.Target{Key: fs.TargetKey(filepath.Join(dir, "f")), DisplayPath: filepath.Join(dir, "f")}
	release, err := p.locks.acquire(context.Background(), tg.Key, fs.VerbWrite)
	require.NoError(t, err)
	for _, verb := range []string{fs.VerbWrite, fs.VerbEdit} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		if verb == fs.VerbWrite {
			_, err = p.WriteText(ctx, tg, "x", nil)
		} else {
			_, err = p.EditText(ctx, tg, fs.EditRequest{OldString: "a"}, nil)
		}
		cancel()
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeAborted, fe.Kind)
		assert.Equal(t, verb+" aborted", fe.Message)
		assert.Equal(t, 1, p.lockCount(), "only the holder remains")
	}
	release()
	assert.Zero(t, p.lockCount())
	assert.NoFileExists(t, string(tg.Key))
}

// secondCallCancels is a context whose Err reports cancellation from its
// second call on (the checkpoint right after the parent directories exist).
type secondCallCancels struct {
	context.Context
	calls int
}

func (c *secondCallCancels) Err() error {
	c.calls++
	if c.calls >= 2 {
		return context.Canceled
	}
	return nil
}

func TestAtomicAbortKeepsCreatedParents(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "a", "b", "t")
	err := writeFileAtomic(&secondCallCancels{Context: context.Background()}, target, "x", atomicOptions{})
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "write aborted", fe.Message)
	assert.DirExists(t, filepath.Join(dir, "a", "b"), "parents stay")
	assert.Empty(t, entries(t, filepath.Join(dir, "a", "b")), "no staging, no target")
}

func TestPriorReadersDoNotBlockOnAFIFO(t *testing.T) {
	dir := tempDir(t)
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	done := make(chan struct{})
	go func() {
		defer close(done)
		prior, err := readPrior(context.Background(), fifo, 1<<20, true)
		assert.NoError(t, err)
		assert.Nil(t, prior.basis)
		prior, err = readPrior(context.Background(), fifo, 1<<20, false)
		assert.NoError(t, err)
		assert.False(t, prior.bom)
		_, err = readForEdit(context.Background(), fs.Target{Key: fs.TargetKey(fifo), DisplayPath: "/d/fifo"}, 1<<20)
		var fe *fs.Error
		if assert.ErrorAs(t, err, &fe) {
			assert.Equal(t, `cannot edit "/d/fifo": not a regular file`, fe.Message)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked opening a FIFO")
	}
}
