package beneath_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
)

// TestOpenBeneathAndDisable: a file beneath the directory opens; a symlink and ".." are the call's
// own ELOOP and EXDEV; once disabled, Open says the caller must walk, until restored.
func TestOpenBeneathAndDisable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	dirfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dirfd)
	fd, ok, err := beneath.Open(dirfd, "f.txt", unix.O_RDONLY|unix.O_CLOEXEC, beneath.Confined)
	if !ok {
		t.Skip("openat2 is not usable here (kernel before 5.6, or filtered): the callers walk")
	}
	if err != nil {
		t.Fatalf("Open(f.txt) = %v", err)
	}
	unix.Close(fd)
	for path, want := range map[string]error{"link": unix.ELOOP, "../x": unix.EXDEV} {
		if _, ok, err := beneath.Open(dirfd, path, unix.O_RDONLY|unix.O_CLOEXEC, beneath.Confined); !ok || err != want {
			t.Errorf("Open(%s) = %v, %v; want %v", path, ok, err, want)
		}
	}
	restore := beneath.Disable()
	if _, ok, _ := beneath.Open(dirfd, "f.txt", unix.O_RDONLY|unix.O_CLOEXEC, beneath.Confined); ok {
		t.Error("Open after Disable: ok, want the walk")
	}
	restore()
	if fd, ok, err := beneath.Open(dirfd, "f.txt", unix.O_RDONLY|unix.O_CLOEXEC, beneath.Confined); !ok || err != nil {
		t.Errorf("Open after restore = %v, %v", ok, err)
	} else {
		unix.Close(fd)
	}
}

// TestLinkless: a path reached through no link is linkless, with the file's stat; a symlink on the
// way or at the end, a missing file, and anything once disabled are not.
func TestLinkless(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		os.Mkdir(filepath.Join(dir, "d"), 0o755),
		os.WriteFile(filepath.Join(dir, "d", "f.txt"), []byte("abc"), 0o644),
		os.Symlink("d", filepath.Join(dir, "alias")),
		os.Symlink("f.txt", filepath.Join(dir, "d", "link")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var st unix.Stat_t
	if !beneath.Linkless(filepath.Join(dir, "d", "f.txt"), &st) {
		if _, ok, _ := beneath.Open(unix.AT_FDCWD, dir, unix.O_PATH, beneath.NoLinks); !ok {
			t.Skip("openat2 is not usable here: the callers walk")
		}
		t.Fatal("Linkless(d/f.txt) = false")
	}
	if st.Size != 3 || st.Mode&unix.S_IFMT != unix.S_IFREG {
		t.Errorf("Linkless(d/f.txt) stat: size %d, mode %o", st.Size, st.Mode)
	}
	if !beneath.Linkless(filepath.Join(dir, "d"), &st) || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		t.Errorf("Linkless(d) = false or not a directory (mode %o)", st.Mode)
	}
	for _, p := range []string{"alias/f.txt", "d/link", "d/missing", "alias"} {
		if beneath.Linkless(filepath.Join(dir, p), nil) {
			t.Errorf("Linkless(%s) = true", p)
		}
	}
	restore := beneath.Disable()
	if beneath.Linkless(filepath.Join(dir, "d", "f.txt"), nil) {
		t.Error("Linkless after Disable = true, want the walk")
	}
	restore()
}
