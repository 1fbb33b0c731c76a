package local

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// processStart is this process's start, the sweep cutoff: residue at least
// this new may belong to a live peer sharing the root.
var processStart = time.Now()

// sweep is the mount-time sweep (docs/attachments.md "Storage"): remove crash
// residue older than cutoff (by its own lstat mtime, never following a
// symlink) from <root>/tmp (every file or symlink) and from
// <root>/request-images/*/ (only "*.tmp" files or symlinks). Objects, cached
// variants and other names are never touched. Per-file failures are skipped;
// an enumeration failure of tmp or request-images (other than absence) is
// returned. It reports the number of removed files.
func sweep(root string, cutoff time.Time) (int, error) {
	n, err := sweepDir(filepath.Join(root, stagingDir), cutoff, func(string) bool { return true })
	if err != nil {
		return n, err
	}
	buckets, err := os.ReadDir(filepath.Join(root, requestsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return n, err
	}
	for _, b := range buckets {
		if !b.IsDir() {
			continue
		}
		m, err := sweepDir(filepath.Join(root, requestsDir, b.Name()), cutoff, func(name string) bool { return strings.HasSuffix(name, ".tmp") })
		if err != nil {
			continue // a bucket that cannot be listed is skipped
		}
		n += m
	}
	return n, nil
}

// sweepDir removes the stale matching files and symlinks directly in dir;
// an absent dir has none.
func sweepDir(dir string, cutoff time.Time, match func(string) bool) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	n := 0
	for _, e := range entries {
		t := e.Type()
		if !match(e.Name()) || (!t.IsRegular() && t&fs.ModeSymlink == 0) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		info, err := os.Lstat(p)
		if err != nil || !info.ModTime().Before(cutoff) {
			continue
		}
		if removeFile(p) == nil {
			n++
		}
	}
	return n, nil
}

// removeFile is os.Remove (replaced in tests to simulate EPERM).
var removeFile = os.Remove
