package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

// Failure paths of fs-local's own (unconfined) writeFileAtomic that the
// reference cases do not reach: every one must return the spec's error (raw
// or coded) unchanged, leave the target as it was, remove the staging
// directory and leak no descriptor.

// openFDs counts this process's open descriptors, except the staging
// registry's (opened by the first write of the process, and held for its life).
func openFDs(t *testing.T) int {
	t.Helper()
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		if names, err := os.ReadDir(dir); err == nil {
			n := 0
			for _, e := range names {
				if target, err := os.Readlink(filepath.Join(dir, e.Name())); err != nil || !strings.Contains(target, "/cordon/staging/") {
					n++
				}
			}
			return n
		}
	}
	t.Skip("no descriptor listing on this system")
	return 0
}

// requireNoLeak asserts dir holds exactly want (no staging directory, no temp
// file) and that the descriptor count is back to fds.
func requireNoLeak(t *testing.T, dir string, want []string, fds int) {
	t.Helper()
	assert.Equal(t, want, entries(t, dir), "directory holds only what it held before")
	assert.Equal(t, fds, openFDs(t), "no descriptor leaked")
}

// nthCallCancels is a context whose Err reports cancellation from its n-th
// call on (n = 1: the first checkpoint).
type nthCallCancels struct {
	context.Context
	n, calls int
}

func (c *nthCallCancels) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// Steps 5 and 10: a failing chmod (staging directory, kept permission bits) is returned raw, and the staging directory is removed; a
// failing removal on top of it is the double-fault FS_NOT_FOUND.
func TestAtomicChmodFailures(t *testing.T) {
	chmodErr := &os.PathError{Op: "chmod", Path: "x", Err: unix.EIO}
	cases := []struct {
		name     string
		hooks    func(h *atomicHooks, calls *int)
		keepPerm bool
	}{
		{"staging directory chmod", func(h *atomicHooks, _ *int) {
			h.chmod = func(p string, mode os.FileMode) error {
				if mode != stagingDirPerm || !strings.HasSuffix(p, ".tmpdir") {
					return errors.New("unexpected chmod")
				}
				return chmodErr
			}
		}, false},
		{"kept permission bits", func(h *atomicHooks, _ *int) {
			h.fchmod = func(f *os.File, mode os.FileMode) error {
				if mode != 0o640 {
					return errors.New("unexpected kept bits")
				}
				return chmodErr
			}
		}, true},
	}
	for _, tc := range cases {
		for _, guarded := range []bool{false, true} {
			name := tc.name + map[bool]string{false: " (rename)", true: " (link)"}[guarded]
			if guarded && tc.keepPerm {
				continue // a guarded create never keeps bits
			}
			t.Run(name, func(t *testing.T) {
				dir := tempDir(t)
				target := filepath.Join(dir, "t")
				var want []string
				if !guarded {
					require.NoError(t, os.WriteFile(target, []byte("old"), 0o640))
					want = []string{"t"}
				}
				fds := openFDs(t)
				h := &atomicHooks{}
				var calls int
				tc.hooks(h, &calls)
				o := atomicOptions{
					createIfAbsent: guarded, display: "/d/t", hooks: h,
				}
				if tc.keepPerm {
					o.keep = &keptMeta{uid: -1, gid: -1, mode: 0o640}
				}
				err := writeFileAtomic(context.Background(), target, "new", o)
				require.Same(t, chmodErr, err, "raw, unwrapped")
				requireNoLeak(t, dir, want, fds)
				if !guarded {
					assert.Equal(t, "old", string(mustRead(t, target)))
				}
			})
		}
	}
	t.Run("then the cleanup fails too", func(t *testing.T) {
		dir := tempDir(t)
		fds := openFDs(t)
		h := &atomicHooks{
			chmod:     func(string, os.FileMode) error { return chmodErr },
			removeAll: func(p string) error { _ = os.RemoveAll(p); return errors.New("busy") },
		}
		err := writeFileAtomic(context.Background(), filepath.Join(dir, "t"), "new", atomicOptions{hooks: h})
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeNotFound, fe.Kind)
		assert.Equal(t, "write failed (input/output error — the device failed; retry, and if it fails again the file cannot be used) and temp cleanup failed (busy)", fe.Message)
		requireNoLeak(t, dir, nil, fds)
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// Step 13, rename: a directory (empty or not) swapped in for the target after
// the probe fails the replacement with os.Rename's raw LinkError (EEXIST: Go
// refuses a rename onto a directory itself), naming the temp file and the
// target; the directory and its contents are untouched.
func TestAtomicRenameOntoDirectory(t *testing.T) {
	for _, child := range []bool{false, true} {
		t.Run(map[bool]string{false: "empty", true: "not empty"}[child], func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "t")
			var temp string
			h := &atomicHooks{inspectTemp: func(_, tmp string) {
				temp = tmp
				require.NoError(t, os.Mkdir(target, 0o755))
				if child {
					require.NoError(t, os.WriteFile(filepath.Join(target, "child"), []byte("c"), 0o644))
				}
			}}
			fds := openFDs(t)
			err := writeFileAtomic(context.Background(), target, "x", atomicOptions{hooks: h})
			var le *os.LinkError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, &os.LinkError{Op: "rename", Old: temp, New: target, Err: unix.EEXIST}, le)
			assert.Empty(t, fs.CodeOf(err))
			requireNoLeak(t, dir, []string{"t"}, fds)
			if child {
				assert.Equal(t, "c", string(mustRead(t, filepath.Join(target, "child"))))
			}
		})
	}
}

// Step 13, link: on a file system without hard links the link fails with
// some errno and nothing occupies the target, so guarded creation is
// FS_IO_ERROR with the link error's message and the link error as cause.
func TestAtomicLinkUnsupported(t *testing.T) {
	for _, errno := range []unix.Errno{unix.EPERM, unix.EOPNOTSUPP, unix.EMLINK, unix.EXDEV, unix.ENOSPC} {
		t.Run(errno.Error(), func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "new.txt")
			var linkErr error
			h := &atomicHooks{link: func(o, n string) error {
				linkErr = &os.LinkError{Op: "link", Old: o, New: n, Err: errno}
				return linkErr
			}}
			fds := openFDs(t)
			err := writeFileAtomic(context.Background(), target, "x", atomicOptions{createIfAbsent: true, display: "shown/new.txt", hooks: h})
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, fs.CodeIOError, fe.Kind)
			assert.Equal(t, `cannot write "shown/new.txt": `+fs.OSReason(errno), fe.Message, "the reason, without the staging path")
			assert.NotContains(t, fe.Message, ".tmpdir")
			assert.ErrorIs(t, err, errno)
			assert.True(t, errors.Is(err, linkErr), "the link error is the cause")
			requireNoLeak(t, dir, nil, fds)
		})
	}
}

// Steps 1, 3, 8 (before each chunk) and 12 are the only cancellation points:
// a write of 2.5 chunks has exactly six. Each fails FS_ABORTED "write aborted"
// with the context error as cause, keeps the parents it created, leaves the
// prior target and no staging directory; the seventh attempt publishes.
func TestAtomicAbortAtEveryCheckpoint(t *testing.T) {
	content := strings.Repeat("z", 2*writeChunkBytes+writeChunkBytes/2)
	for _, guarded := range []bool{false, true} {
		t.Run(map[bool]string{false: "rename", true: "link"}[guarded], func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "a", "b", "t")
			var want []string
			if !guarded {
				require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
				require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
				want = []string{"t"}
			}
			for n := 1; ; n++ {
				require.LessOrEqual(t, n, 7, "more checkpoints than the spec's")
				fds := openFDs(t)
				ctx := &nthCallCancels{Context: context.Background(), n: n}
				err := writeFileAtomic(ctx, target, content, atomicOptions{createIfAbsent: guarded, display: target})
				if err == nil {
					assert.Equal(t, 7, n, "six checkpoints before publication")
					assert.Equal(t, content, string(mustRead(t, target)))
					requireNoLeak(t, filepath.Dir(target), []string{"t"}, fds)
					return
				}
				var fe *fs.Error
				require.ErrorAs(t, err, &fe, "checkpoint %d", n)
				assert.Equal(t, fs.CodeAborted, fe.Kind)
				assert.Equal(t, "write aborted", fe.Message)
				assert.ErrorIs(t, err, context.Canceled)
				if n == 1 {
					if guarded {
						assert.NoDirExists(t, filepath.Dir(target), "step 1 precedes the parents")
					}
					continue
				}
				requireNoLeak(t, filepath.Dir(target), want, fds)
				if !guarded {
					assert.Equal(t, "old", string(mustRead(t, target)))
				}
			}
		})
	}
}

// Step 5: a staging name that is already taken (a directory with contents, a
// file, a symlink) fails with os.Mkdir's raw EEXIST naming the staging path;
// the entry is left exactly as it was and nothing else is created.
func TestAtomicStagingCollisionIsRawAndUntouched(t *testing.T) {
	const name = ".t.taken.tmpdir"
	cases := map[string]func(t *testing.T, p string){
		"directory": func(t *testing.T, p string) {
			require.NoError(t, os.Mkdir(p, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(p, "t.tmp"), []byte("theirs"), 0o644))
		},
		"file":    func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, []byte("theirs"), 0o644)) },
		"symlink": func(t *testing.T, p string) { require.NoError(t, os.Symlink("elsewhere", p)) },
	}
	for label, create := range cases {
		t.Run(label, func(t *testing.T) {
			dir := tempDir(t)
			staging := filepath.Join(dir, name)
			create(t, staging)
			before, err := os.Lstat(staging)
			require.NoError(t, err)
			fds := openFDs(t)
			h := &atomicHooks{stagingName: func(string) string { return name }}
			for _, guarded := range []bool{false, true} {
				err := writeFileAtomic(context.Background(), filepath.Join(dir, "t"), "v", atomicOptions{createIfAbsent: guarded, hooks: h})
				var pe *os.PathError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, &os.PathError{Op: "mkdir", Path: staging, Err: unix.EEXIST}, pe)
			}
			after, err := os.Lstat(staging)
			require.NoError(t, err)
			assert.Equal(t, before.Mode(), after.Mode())
			assert.Equal(t, before.ModTime(), after.ModTime())
			requireNoLeak(t, dir, []string{name}, fds)
			if label == "directory" {
				assert.Equal(t, "theirs", string(mustRead(t, filepath.Join(staging, "t.tmp"))))
			}
		})
	}
}

// Step 4 with the longest names: a 255-byte base gets a staging directory and
// temp file whose names keep its first staging.MaxBase bytes and fit NAME_MAX.
// A 256-byte base (only reachable by a caller that skipped Resolve) stages
// fine but cannot be published: the rename's raw ENAMETOOLONG; for guarded
// creation the inspection of the target fails too, so FS_IO_ERROR with the
// lstat message. Nothing is left behind either way.
func TestAtomicLongBasenames(t *testing.T) {
	t.Run("255 bytes", func(t *testing.T) {
		dir := tempDir(t)
		base := strings.Repeat("n", 255)
		var stagingDir, temp string
		h := &atomicHooks{inspectTemp: func(s, tmp string) { stagingDir, temp = s, tmp }}
		fds := openFDs(t)
		require.NoError(t, writeFileAtomic(context.Background(), filepath.Join(dir, base), "v", atomicOptions{hooks: h}))
		assert.True(t, strings.HasPrefix(filepath.Base(stagingDir), "."+base[:staging.MaxBase]+"."), filepath.Base(stagingDir))
		assert.LessOrEqual(t, len(filepath.Base(stagingDir)), 255)
		assert.Equal(t, base[:staging.MaxBase]+".tmp", filepath.Base(temp))
		requireNoLeak(t, dir, []string{base}, fds)
	})
	t.Run("256 bytes", func(t *testing.T) {
		dir := tempDir(t)
		target := filepath.Join(dir, strings.Repeat("n", 256))
		fds := openFDs(t)
		err := writeFileAtomic(context.Background(), target, "v", atomicOptions{})
		var le *os.LinkError
		require.ErrorAs(t, err, &le)
		assert.Equal(t, "rename", le.Op)
		assert.Equal(t, target, le.New)
		assert.ErrorIs(t, err, unix.ENAMETOOLONG)
		assert.Empty(t, fs.CodeOf(err))
		requireNoLeak(t, dir, nil, fds)

		err = writeFileAtomic(context.Background(), target, "v", atomicOptions{createIfAbsent: true, display: "long"})
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeIOError, fe.Kind)
		assert.Equal(t, `cannot write "long": file name too long — use a shorter name`, fe.Message)
		var pe *os.PathError
		require.ErrorAs(t, err, &pe, "the cause is the inspection error")
		assert.Equal(t, "lstat", pe.Op)
		requireNoLeak(t, dir, nil, fds)
	})
}
