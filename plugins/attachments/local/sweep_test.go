package local

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeAged(t *testing.T, p string, age time.Duration) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
	require.NoError(t, os.WriteFile(p, []byte("partial"), 0o600))
	when := time.Now().Add(-age)
	require.NoError(t, os.Chtimes(p, when, when))
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// The sweep removes stale staging files and request-image temporaries and
// keeps everything else, with the final design's age guard
// on both locations (docs/attachments.md "Storage").
func TestSweepRemovesOnlyStaleResidue(t *testing.T) {
	root := filepath.Join(t.TempDir(), "attachments", "v1")
	tmp := filepath.Join(root, "tmp")
	bucket := filepath.Join(root, "request-images", "ab")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "request-images", "ef"), 0o700))
	staleStage := filepath.Join(tmp, "stale-uuid")
	freshStage := filepath.Join(tmp, "fresh-uuid")
	staleTemp := filepath.Join(bucket, "ab12.uuid-1.tmp")
	freshTemp := filepath.Join(bucket, "ab12.uuid-2.tmp")
	cached := filepath.Join(bucket, "ab12")
	stray := filepath.Join(bucket, "readme.md")
	object := filepath.Join(root, "objects", "cd", "cd00")
	writeAged(t, staleStage, time.Hour)
	writeAged(t, freshStage, 0)
	writeAged(t, staleTemp, time.Hour)
	writeAged(t, freshTemp, 0)
	writeAged(t, cached, time.Hour)
	writeAged(t, stray, time.Hour)
	writeAged(t, object, time.Hour)
	// A stale directory inside tmp is not a file: skipped.
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "subdir"), 0o700))
	// A symlink is judged by its own mtime and removed as a link.
	target := filepath.Join(t.TempDir(), "target")
	writeAged(t, target, 0)
	link := filepath.Join(tmp, "link-uuid")
	require.NoError(t, os.Symlink(target, link))
	old := time.Now().Add(-time.Hour)
	require.NoError(t, lchtimes(link, old))

	n, err := sweep(root, time.Now().Add(-30*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.False(t, exists(staleStage))
	assert.False(t, exists(staleTemp))
	assert.False(t, exists(link))
	assert.True(t, exists(target), "the link target is untouched")
	for _, p := range []string{freshStage, freshTemp, cached, stray, object, filepath.Join(tmp, "subdir")} {
		assert.True(t, exists(p), p)
	}
}

// Reference: "skips an entry it cannot remove and still sweeps the rest".
func TestSweepSkipsUnremovable(t *testing.T) {
	root := filepath.Join(t.TempDir(), "v1")
	locked := filepath.Join(root, "tmp", "locked-uuid")
	removable := filepath.Join(root, "request-images", "ab", "ab12.uuid-3.tmp")
	writeAged(t, locked, time.Hour)
	writeAged(t, removable, time.Hour)
	orig := removeFile
	removeFile = func(p string) error {
		if p == locked {
			return &os.PathError{Op: "remove", Path: p, Err: os.ErrPermission}
		}
		return orig(p)
	}
	t.Cleanup(func() { removeFile = orig })
	n, err := sweep(root, time.Now())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.True(t, exists(locked))
	assert.False(t, exists(removable))
}

// Reference: "rejects when a swept location exists but cannot be
// enumerated" and "accepts an absent storage root"; a bucket that cannot be
// listed is skipped.
func TestSweepEnumerationFailures(t *testing.T) {
	root := filepath.Join(t.TempDir(), "v1")
	require.NoError(t, os.MkdirAll(root, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(root, "tmp"), []byte("not a directory"), 0o600))
	_, err := sweep(root, time.Now())
	assert.Error(t, err)

	root2 := filepath.Join(t.TempDir(), "v1")
	require.NoError(t, os.MkdirAll(root2, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(root2, "request-images"), nil, 0o600))
	_, err = sweep(root2, time.Now())
	assert.Error(t, err)

	n, err := sweep(filepath.Join(t.TempDir(), "missing"), time.Now())
	require.NoError(t, err)
	assert.Zero(t, n)

	if os.Geteuid() != 0 {
		root3 := filepath.Join(t.TempDir(), "v1")
		bad := filepath.Join(root3, "request-images", "aa")
		good := filepath.Join(root3, "request-images", "bb", "x.tmp")
		writeAged(t, filepath.Join(bad, "y.tmp"), time.Hour)
		writeAged(t, good, time.Hour)
		require.NoError(t, os.Chmod(bad, 0))
		t.Cleanup(func() { _ = os.Chmod(bad, 0o700) })
		n, err = sweep(root3, time.Now())
		require.NoError(t, err)
		assert.Equal(t, 1, n)
	}
}

func TestSweepCutoffIsInclusiveKeep(t *testing.T) {
	root := filepath.Join(t.TempDir(), "v1")
	p := filepath.Join(root, "tmp", "x")
	writeAged(t, p, 0)
	info, err := os.Lstat(p)
	require.NoError(t, err)
	n, err := sweep(root, info.ModTime())
	require.NoError(t, err)
	assert.Zero(t, n, "mtime == cutoff is kept")
	assert.True(t, exists(p))
}
