package hostfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// FuzzResolve feeds arbitrary paths to Resolve and Lstat over a small tree
// with a file, a directory, a symlink alias, a dangling link and a loop. It
// never panics; a resolved target has a clean absolute display path and a
// clean absolute key, the same file has the same key whatever the spelling,
// a path with a NUL never resolves, and every failure is a coded *fs.Error
// (FS_NOT_DIRECTORY only for a directory spelling of a non-directory) whose
// message is the blank-path text or names the path ("cannot resolve ...",
// "cannot access ..." for Lstat), never an OS error's own text.
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
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string) {
		ctx := context.Background()
		if _, err := p.Lstat(ctx, path, fs.LstatOptions{}); err != nil {
			requireNamedFailure(t, "Lstat", path, err, `cannot access "`)
		}
		tg, err := p.Resolve(ctx, path, fs.ResolveOptions{})
		if err != nil {
			requireNamedFailure(t, "Resolve", path, err, `cannot resolve "`)
			if code := fs.CodeOf(err); code == fs.CodeNotDirectory && !fs.NamesDirectory(path) {
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

// requireNamedFailure fails t unless err is a coded *fs.Error whose message is the blank-path
// text or starts with prefix (a NUL path: "cannot resolve" for Lstat too).
func requireNamedFailure(t *testing.T, op, path string, err error, prefix string) {
	t.Helper()
	var fe *fs.Error
	if !errors.As(err, &fe) {
		t.Fatalf("%s(%q): an uncoded error: %v", op, path, err)
	}
	if fe.Message != fs.BlankPath().Message && !strings.HasPrefix(fe.Message, prefix) && !strings.HasPrefix(fe.Message, `cannot resolve "`) {
		t.Fatalf("%s(%q): %s %q names no path", op, path, fe.Kind, fe.Message)
	}
}
