package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Reference writeFileAtomic cases on the causes a guarded-create failure
// carries: "maps a non-collision guarded-create publication failure" (cause =
// the link error), "maps a guarded-create target-inspection failure" (cause =
// the inspection error) and "rejects a guarded-create collision that vanishes
// before inspection" (cause = the collision). The target stays absent and the
// staging directory is removed in each case.
func TestAtomicGuardedCreateCauses(t *testing.T) {
	denied := &os.LinkError{Op: "link", Err: unix.EACCES}
	linkFailure := &os.LinkError{Op: "link", Err: unix.EIO}
	inspection := &os.PathError{Op: "lstat", Err: unix.EACCES}
	collision := &os.LinkError{Op: "link", Err: unix.EEXIST}
	cases := []struct {
		name  string
		link  error
		lstat error
		code  fs.Code
		cause error
	}{
		{"link denied", denied, nil, fs.CodeIOError, denied},
		{"inspection fails", linkFailure, inspection, fs.CodeIOError, inspection},
		{"collision vanished", collision, nil, fs.CodeNotObserved, collision},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "a.txt")
			h := &atomicHooks{link: func(string, string) error { return tc.link }}
			if tc.lstat != nil {
				h.lstat = func(string) (os.FileInfo, error) { return nil, tc.lstat }
			}
			err := writeFileAtomic(context.Background(), target, "ours", atomicOptions{createIfAbsent: true, display: target, hooks: h})
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.code, fe.Kind)
			assert.True(t, errors.Is(err, tc.cause), "cause %v reachable from %v", tc.cause, err)
			assert.NoFileExists(t, target)
			assert.Empty(t, entries(t, dir), "staging removed")
		})
	}
}

// Reference: "does not turn post-commit staging cleanup failure into a failed
// guarded write".
func TestAtomicGuardedCreateIgnoresPostCommitCleanupFailure(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "a.txt")
	h := &atomicHooks{removeAll: func(string) error { return errors.New("staging cleanup failed") }}
	require.NoError(t, writeFileAtomic(context.Background(), target, "ours", atomicOptions{createIfAbsent: true, display: target, hooks: h}))
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "ours", string(b))
}

// Spec 2.3: when the post-write probe finds the file gone (a concurrent
// unlink after publication) the committed mutation reports the version
// "missing:<key>".
func TestVersionAfterMissingSentinel(t *testing.T) {
	dir := tempDir(t)
	p, err := New(Config{Cwd: dir}, nil)
	require.NoError(t, err)
	key := fs.TargetKey(filepath.Join(dir, "gone.txt"))
	assert.Equal(t, fs.Version("missing:"+string(key)), p.versionAfter(key))
	require.NoError(t, os.WriteFile(string(key), []byte("x"), 0o600))
	assert.Regexp(t, `^\d+:\d+:1:\d+:\d+$`, string(p.versionAfter(key)))
}
