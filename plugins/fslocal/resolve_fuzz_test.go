package fslocal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// FuzzResolve feeds arbitrary paths to Resolve and Lstat over a small tree
// with a file, a directory, a symlink alias, a dangling link and a loop. It
// never panics; a resolved target has a clean absolute display path and a
// clean absolute key, the same file has the same key whatever the spelling,
// a path with a NUL never resolves, and a failure is either a coded
// *fs.Error (blank path, parent not a directory, a directory spelling of a
// non-directory) or a raw OS error.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"", " ", "a", "d/f", "alias/f", "d/../d/./f", "dangling", "loop", "loop/x", "f/child",
		"..", "../..", "/", "//", "/./../", "~", "~/x", "a\x00b", "d/\x00", "f\x00/../d/f", "f/", "d/f/.", "d/", "alias/", "\uFEFF", "é/世",
		strings.Repeat("n", 255), strings.Repeat("n", 256), strings.Repeat("x/", 3000),
	} {
		f.Add(seed)
	}
	dir, err := os.MkdirTemp("", "fuzz-resolve")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = os.RemoveAll(dir) })
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		f.Fatal(err)
	}
	for _, err := range []error{
		os.Mkdir(filepath.Join(dir, "d"), 0o755),
		os.WriteFile(filepath.Join(dir, "d", "f"), []byte("x"), 0o644),
		os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644),
		os.Symlink("d", filepath.Join(dir, "alias")),
		os.Symlink("nowhere", filepath.Join(dir, "dangling")),
		os.Symlink("loop", filepath.Join(dir, "loop")),
	} {
		if err != nil {
			f.Fatal(err)
		}
	}
	p, err := fslocal.New(fslocal.Config{Cwd: dir}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string) {
		ctx := context.Background()
		_, _ = p.Lstat(ctx, path, fs.LstatOptions{})
		tg, err := p.Resolve(ctx, path, fs.ResolveOptions{})
		if err != nil {
			if code := fs.CodeOf(err); code != "" && code != fs.CodeNotFound && (code != fs.CodeNotDirectory || !fs.NamesDirectory(path)) {
				t.Fatalf("Resolve(%q): unexpected code %s: %v", path, code, err)
			}
			return
		}
		if strings.IndexByte(path, 0) >= 0 {
			t.Fatalf("Resolve(%q): a path with a NUL resolved to %q", path, tg.Key)
		}
		display, key := tg.DisplayPath, string(tg.Key)
		if !filepath.IsAbs(display) || filepath.Clean(display) != display {
			t.Fatalf("Resolve(%q): display %q is not clean and absolute", path, display)
		}
		if !filepath.IsAbs(key) || filepath.Clean(key) != key {
			t.Fatalf("Resolve(%q): key %q is not clean and absolute", path, key)
		}
		if strings.IndexByte(key, 0) >= 0 {
			t.Fatalf("Resolve(%q): key %q holds a NUL", path, key)
		}
		if real, err := filepath.EvalSymlinks(display); err == nil && real != key {
			t.Fatalf("Resolve(%q): key %q, realpath %q", path, key, real)
		}
	})
}
