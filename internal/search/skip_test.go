package search_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/search"
)

// fdNamed reports whether the open descriptor fd is the file called name.
func fdNamed(fd int, name string) bool {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	return err == nil && filepath.Base(p) == name
}

// grepStats runs a grep under ctx and returns its matches, stats and error.
func grepStats(ctx context.Context, t *testing.T, q search.GrepQuery, pattern string) ([]hit, search.GrepStats, error) {
	t.Helper()
	m, err := search.CompileMatcher(pattern)
	mustNoErr(t, err)
	q.Matcher, q.MaxLineBytes = m, 2000
	var out []hit
	stats, err := search.Grep(ctx, q, func(lm search.LineMatch) error {
		out = append(out, hit{lm.Rel, lm.Line, string(lm.Text), lm.Truncated, lm.Valid})
		return nil
	})
	return sortHits(out), stats, err
}

// TestEAGAINFileIsSkipped: a regular file whose read returns EAGAIN (as /proc/kmsg or trace_pipe
// do) is skipped and counted, not retried.
func TestEAGAINFileIsSkipped(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{"a.txt": "hit\n", "stream.txt": "hit\n"})
	var reads atomic.Int32
	restore := search.SetReadHook(func(fd int, p []byte, off int64) (int, error) {
		if fdNamed(fd, "stream.txt") {
			reads.Add(1)
			return 0, unix.EAGAIN
		}
		if off >= 0 {
			return unix.Pread(fd, p, off)
		}
		return unix.Read(fd, p)
	})
	defer restore()
	got, stats, err := grepStats(context.Background(), t, search.GrepQuery{Root: root}, "hit")
	mustNoErr(t, err)
	if want := []hit{{"a.txt", 1, "hit", false, true}}; !slices.Equal(got, want) || stats.Skipped != 1 || reads.Load() != 1 {
		t.Fatalf("got %+v, stats %+v after %d reads of the stream", got, stats, reads.Load())
	}
}

// TestStuckReadDoesNotHoldTheSearch: once the context ends, a grep returns even while a read is
// stuck in the kernel (simulated by a read that ignores everything), and emits nothing after.
func TestStuckReadDoesNotHoldTheSearch(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{"hang.txt": "hit\n"})
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	restore := search.SetReadHook(func(fd int, p []byte, off int64) (int, error) {
		if fdNamed(fd, "hang.txt") {
			entered <- struct{}{}
			<-release
		}
		return unix.Read(fd, p)
	})
	t.Cleanup(func() { close(release); restore() })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := grepStats(ctx, t, search.GrepQuery{Root: root}, "hit")
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// TestKernelFilesAreNotRead: files of /proc and /sys are never read by grep (they are views of
// kernel state; reading some consumes it); they count as skipped. glob still lists them.
func TestKernelFilesAreNotRead(t *testing.T) {
	isolate(t)
	got, stats, err := grepStats(context.Background(), t, search.GrepQuery{Root: "/proc/self/status", File: true}, "Name:")
	mustNoErr(t, err)
	if len(got) != 0 || stats.Skipped != 1 {
		t.Fatalf("/proc/self/status was read: %+v, %+v", got, stats)
	}
	restore := search.SetReadHook(func(fd int, p []byte, off int64) (int, error) {
		// Only the kernel's files count: a worker an earlier test left behind may still read its own.
		if target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err != nil || strings.HasPrefix(target, "/sys/") || strings.HasPrefix(target, "/proc/") {
			t.Errorf("read a kernel file: %q (%v)", target, err)
			return 0, io.EOF
		}
		if off >= 0 {
			return unix.Pread(fd, p, off)
		}
		return unix.Read(fd, p)
	})
	defer restore()
	_, stats, err = grepStats(context.Background(), t, search.GrepQuery{Root: "/sys/kernel", Options: search.Options{MaxVisited: 2000}}, "x")
	mustNoErr(t, err)
	if stats.Skipped == 0 {
		t.Fatalf("no file of /sys/kernel counted as skipped: %+v", stats)
	}
	found, err := search.Files(context.Background(), "/proc/"+strconv.Itoa(os.Getpid()), mustGlob(t, "status"), search.Options{MaxVisited: 5000})
	mustNoErr(t, err)
	if !slices.ContainsFunc(found.Files, func(f search.FoundFile) bool { return f.Rel == "status" }) {
		t.Fatalf("glob of /proc/<pid>: %+v", found.Files)
	}
}

func mustGlob(t *testing.T, p string) *search.Glob {
	t.Helper()
	g, err := search.CompileGlob(p)
	mustNoErr(t, err)
	return g
}

// TestDeeperThanPathMax: a tree whose paths are longer than the kernel takes whole (PATH_MAX) is
// walked and searched to the bottom, its ignore files applied there too.
func TestDeeperThanPathMax(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{".git/": "", "top.txt": "hit\n"})
	comp := strings.Repeat("d", 200)
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	mustNoErr(t, err)
	depth := 0
	for ; depth*(len(comp)+1) < 2*unix.PathMax; depth++ {
		mustNoErr(t, unix.Mkdirat(fd, comp, 0o755))
		next, err := unix.Openat(fd, comp, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		mustNoErr(t, err)
		unix.Close(fd)
		fd = next
	}
	for name, body := range map[string]string{"deep.txt": "hit\n", "deep.log": "hit\n", ".gitignore": "*.log\n"} {
		f, err := unix.Openat(fd, name, unix.O_WRONLY|unix.O_CREAT, 0o644)
		mustNoErr(t, err)
		_, err = unix.Write(f, []byte(body))
		mustNoErr(t, err)
		unix.Close(f)
	}
	unix.Close(fd)
	deep := strings.Repeat(comp+"/", depth) + "deep.txt"
	found, err := search.Files(context.Background(), root, nil, search.Options{})
	mustNoErr(t, err)
	if got, want := rels(found), []string{strings.Repeat(comp+"/", depth) + ".gitignore", deep, "top.txt"}; !slices.Equal(got, want) || found.Skipped != 0 {
		t.Fatalf("files %d (skipped %d), want the deep ones too", len(got), found.Skipped)
	}
	hits, stats, err := grepStats(context.Background(), t, search.GrepQuery{Root: root}, "hit")
	mustNoErr(t, err)
	if want := []hit{{deep, 1, "hit", false, true}, {"top.txt", 1, "hit", false, true}}; !slices.Equal(hits, want) || stats.Skipped != 0 {
		t.Fatalf("grep found %d lines (skipped %d), want the deep file's too", len(hits), stats.Skipped)
	}
}

// unreadableEnv names the tree a re-executed test checks as an unprivileged user, unprivileged
// that user's uid and gid (no account is needed).
const (
	unreadableEnv = "SEARCH_TEST_UNREADABLE_ROOT"
	unprivileged  = 54321
)

// TestUnreadableEntriesAreCounted: a directory and a file the user cannot read are skipped and
// counted. As root (who reads everything) the check runs in a child process under an unprivileged
// uid.
func TestUnreadableEntriesAreCounted(t *testing.T) {
	if root := os.Getenv(unreadableEnv); root != "" {
		checkUnreadable(t, root)
		return
	}
	root, err := os.MkdirTemp("", "search-unreadable-")
	mustNoErr(t, err)
	t.Cleanup(func() {
		os.Chmod(filepath.Join(root, "locked"), 0o755)
		os.RemoveAll(root)
	})
	mustNoErr(t, os.Chmod(root, 0o755))
	for p, c := range map[string]string{"a.txt": "hit\n", "locked/b.txt": "hit\n", "c.txt": "hit\n"} {
		mustNoErr(t, os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755))
		mustNoErr(t, os.WriteFile(filepath.Join(root, p), []byte(c), 0o644))
	}
	mustNoErr(t, os.Chmod(filepath.Join(root, "locked"), 0))
	mustNoErr(t, os.Chmod(filepath.Join(root, "c.txt"), 0))
	if os.Geteuid() != 0 {
		checkUnreadable(t, root)
		return
	}
	// Root reads everything: run the check again as a uid with no account and no privileges, from
	// a copy of this test binary it can execute.
	exe, err := os.Executable()
	mustNoErr(t, err)
	bin, err := os.MkdirTemp("", "search-unreadable-bin-")
	mustNoErr(t, err)
	t.Cleanup(func() { os.RemoveAll(bin) })
	mustNoErr(t, os.Chmod(bin, 0o755))
	data, err := os.ReadFile(exe)
	mustNoErr(t, err)
	copyExe := filepath.Join(bin, "search.test")
	mustNoErr(t, os.WriteFile(copyExe, data, 0o755))
	cmd := exec.Command(copyExe, "-test.run=^TestUnreadableEntriesAreCounted$", "-test.v", "-test.count=1")
	cmd.Dir = bin
	tmp := filepath.Join(bin, "tmp")
	mustNoErr(t, os.Mkdir(tmp, 0o700))
	mustNoErr(t, os.Chown(tmp, unprivileged, unprivileged))
	cmd.Env = append(os.Environ(), unreadableEnv+"="+root, "HOME="+tmp, "TMPDIR="+tmp, "GOCOVERDIR=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivileged, Gid: unprivileged}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestUnreadableEntriesAreCounted") {
		t.Fatalf("the unprivileged check failed: %v\n%s", err, out)
	}
}

func checkUnreadable(t *testing.T, root string) {
	isolate(t)
	if _, err := os.ReadFile(filepath.Join(root, "c.txt")); err == nil {
		t.Fatal("c.txt is readable: the check needs an unprivileged user")
	}
	found, err := search.Files(context.Background(), root, nil, search.Options{})
	mustNoErr(t, err)
	if len(found.Files) != 2 || found.Skipped != 1 {
		t.Fatalf("files %+v, skipped %d: want a.txt and c.txt, the locked directory skipped", found.Files, found.Skipped)
	}
	got, stats, err := grepStats(context.Background(), t, search.GrepQuery{Root: root}, "hit")
	mustNoErr(t, err)
	if want := []hit{{"a.txt", 1, "hit", false, true}}; !slices.Equal(got, want) || stats.Skipped != 2 {
		t.Fatalf("grep %+v, skipped %d: want a.txt, the locked directory and c.txt skipped", got, stats.Skipped)
	}
}

// TestCancelStopsTheRegexpOverALongLine: the regular expression run over a re-read of a line too
// long to hold stops reading once the context ends.
func TestCancelStopsTheRegexpOverALongLine(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{"long.txt": "start " + strings.Repeat("é", 2<<20) + " end\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var preads atomic.Int32
	restore := search.SetReadHook(func(fd int, p []byte, off int64) (int, error) {
		if off < 0 {
			return unix.Read(fd, p)
		}
		preads.Add(1)
		cancel()
		return unix.Pread(fd, p, off)
	})
	defer restore()
	_, _, err := grepStats(ctx, t, search.GrepQuery{Root: filepath.Join(root, "long.txt"), File: true}, `^start é+x`)
	if !errors.Is(err, context.Canceled) || preads.Load() != 1 {
		t.Fatalf("err %v after %d re-reads of the line", err, preads.Load())
	}
}
