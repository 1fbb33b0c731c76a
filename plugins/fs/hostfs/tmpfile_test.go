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
)

// A write through an unnamed temp file (O_TMPFILE) leaves no staging directory, gives the file
// the kept mode before it has a name, and on every failure after the temp file's link (its
// rename, a cancellation, a refusal right before publication) removes the linked name: the
// target keeps its content, the directory holds what it held, no descriptor leaks. A failed
// removal on top is the double fault FS_NOT_FOUND.
func TestTmpfilePublication(t *testing.T) {
	if !procFDLinks() {
		t.Skip("no /proc/self/fd")
	}
	renameErr := &os.LinkError{Op: "rename", Err: unix.EIO}
	cases := []struct {
		name   string
		hooks  func(h *atomicHooks, cancel context.CancelFunc)
		want   func(t *testing.T, err error)
		linked bool // the failure comes after the link
	}{
		{"published", func(*atomicHooks, context.CancelFunc) {}, func(t *testing.T, err error) { require.NoError(t, err) }, false},
		{"rename fails", func(h *atomicHooks, _ context.CancelFunc) {
			h.rename = func(string, string) error { return renameErr }
		}, func(t *testing.T, err error) { assert.Equal(t, renameErr, err) }, true},
		{"cancelled once linked", func(h *atomicHooks, cancel context.CancelFunc) {
			h.linked = func(string) { cancel() }
		}, func(t *testing.T, err error) { assert.Equal(t, fs.CodeAborted, fs.CodeOf(err)) }, true},
		{"rename and removal fail", func(h *atomicHooks, _ context.CancelFunc) {
			h.rename = func(string, string) error { return renameErr }
			h.removeAll = func(p string) error { _ = os.Remove(p); return errors.New("removal failed") }
		}, func(t *testing.T, err error) {
			assert.Equal(t, fs.CodeNotFound, fs.CodeOf(err))
			assert.ErrorIs(t, err, renameErr)
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "t")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
			fds := openFDs(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var temp string
			h := &atomicHooks{tmpfile: true}
			tc.hooks(h, cancel)
			seen := h.linked
			h.linked = func(p string) {
				temp = p
				assert.Equal(t, os.FileMode(0o600), permOfPath(t, p), "the kept mode, before the name")
				assert.Equal(t, "new", string(mustRead(t, p)), "complete once linked")
				if seen != nil {
					seen(p)
				}
			}
			err := writeFileAtomic(ctx, target, "new", atomicOptions{keep: &keptMeta{uid: -1, gid: -1, mode: 0o600}, hooks: h})
			tc.want(t, err)
			require.NotEmpty(t, temp, "published through a linked temp file")
			assert.Equal(t, dir, filepath.Dir(temp))
			assert.True(t, strings.HasPrefix(filepath.Base(temp), ".t.") && strings.HasSuffix(temp, ".tmp"), temp)
			if err == nil {
				assert.Equal(t, "new", string(mustRead(t, target)))
				assert.Equal(t, os.FileMode(0o600), permOfPath(t, target))
			} else {
				assert.Equal(t, "old", string(mustRead(t, target)))
			}
			requireNoLeak(t, dir, []string{"t"}, fds)
		})
	}

	// A guarded creation renames its temp file to the target without replacing an entry there:
	// a second one is FS_NOT_OBSERVED and leaves the first file and no temp file. Where the
	// filesystem has no RENAME_NOREPLACE it links (here: the test's link hook stands for it).
	for _, viaLink := range []bool{false, true} {
		dir := tempDir(t)
		n := filepath.Join(dir, "n")
		var temps []string
		h := &atomicHooks{tmpfile: true, linked: func(p string) { temps = append(temps, p) }}
		if viaLink {
			h.link = os.Link
		}
		require.NoError(t, writeFileAtomic(context.Background(), n, "mine", atomicOptions{createIfAbsent: true, display: "n", hooks: h}))
		assert.Equal(t, "mine", string(mustRead(t, n)))
		err := writeFileAtomic(context.Background(), n, "again", atomicOptions{createIfAbsent: true, display: "n", hooks: h})
		assert.Equal(t, fs.CodeNotObserved, fs.CodeOf(err))
		assert.Equal(t, "mine", string(mustRead(t, n)))
		assert.Equal(t, []string{"n"}, entries(t, dir), "via link: %v", viaLink)
		assert.Len(t, temps, 2, "each through a temp name")
	}
}

// Where the unnamed file cannot be linked for a reason the staging directory does not share
// (here ENOENT: no /proc after all), the write stages in a directory instead and publishes;
// where the link fails for lack of space, it fails as the staging directory would, raw, with
// nothing left behind.
func TestTmpfileLinkFailure(t *testing.T) {
	if !procFDLinks() {
		t.Skip("no /proc/self/fd")
	}
	for _, tc := range []struct {
		name  string
		errno unix.Errno
		want  string // the target's content after the write
	}{
		{"falls back to a staging directory", unix.ENOENT, "new"},
		{"fails for lack of space", unix.ENOSPC, "old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			target := filepath.Join(dir, "t")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
			fds := openFDs(t)
			linkErr := &os.LinkError{Op: "link", Old: "/proc/self/fd/9", New: target, Err: tc.errno}
			h := &atomicHooks{tmpfile: true, linkFD: func() error { return linkErr }}
			staged := false
			h.inspectTemp = func(stagingDir, _ string) { staged = stagingDir != "" }
			err := writeFileAtomic(context.Background(), target, "new", atomicOptions{hooks: h})
			if tc.want == "new" {
				require.NoError(t, err)
				assert.True(t, staged, "published from a staging directory")
			} else {
				assert.Equal(t, linkErr, err)
				assert.False(t, staged)
			}
			assert.Equal(t, tc.want, string(mustRead(t, target)))
			requireNoLeak(t, dir, []string{"t"}, fds)
		})
	}
}

func permOfPath(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	require.NoError(t, err)
	return fi.Mode().Perm()
}
