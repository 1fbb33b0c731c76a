package hostfs_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

const (
	// crashHelperEnv names the directory the helper process writes in.
	crashHelperEnv = "CORDON_FSLOCAL_CRASH_HELPER"
	// crashTargetEnv, when set, is the absolute path the helper writes
	// (default: target.bin in the directory); crashBeneathEnv, when set, a
	// root the helper's writes are confined beneath (WriteTextBeneath, as
	// fs-sandbox writes).
	crashTargetEnv  = "CORDON_FSLOCAL_CRASH_TARGET"
	crashBeneathEnv = "CORDON_FSLOCAL_CRASH_BENEATH"
	// crashStagingEnv, when set, makes the helper stage in a directory (the fallback where
	// there is no O_TMPFILE), whose residue a kill leaves at any point of the write.
	crashStagingEnv = "CORDON_FSLOCAL_CRASH_STAGING"
	crashFileSize   = 4 << 20
	crashTarget     = "target.bin"
	crashFills      = "ab"
)

// TestHelperProcess is the child of TestCrashConsistency and
// TestStartSweepsResidueOfKilledWriters: it rewrites target.bin (or
// crashTargetEnv) with 4 MiB of b, a, b, ... through the real provider until
// it is killed, printing "ready" once and "w" after every completed write. It
// does nothing in a normal test run.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(crashHelperEnv)
	if dir == "" {
		return
	}
	// No diff basis: reading and validating the 4 MiB prior text would only
	// slow the writer down; the publication path is the same.
	p, err := hostfs.New(hostfs.Config{Cwd: dir, DiffBasisMaxBytes: 1}, nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	if os.Getenv(crashStagingEnv) != "" {
		hostfs.UseStagingDirectory(p)
	}
	target := os.Getenv(crashTargetEnv)
	if target == "" {
		target = crashTarget
	}
	tg, err := p.Resolve(context.Background(), target, fsResolveOptions())
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	var contents []string
	for _, c := range crashFills {
		contents = append(contents, strings.Repeat(string(c), crashFileSize))
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "ready")
	out.Flush()
	write := func(content string) error {
		_, err := p.WriteText(context.Background(), tg, content, nil)
		return err
	}
	if root := os.Getenv(crashBeneathEnv); root != "" {
		b := hostfs.Beneath{Root: root}
		write = func(content string) error {
			_, err := p.WriteTextBeneath(context.Background(), tg, content, nil, b)
			return err
		}
	}
	for i := 1; ; i++ {
		if err := write(contents[i%len(contents)]); err != nil {
			fmt.Fprintln(out, "error:", err)
			out.Flush()
			os.Exit(2)
		}
		fmt.Fprintln(out, "w")
		out.Flush()
	}
}

// TestCrashConsistency kills a process that keeps rewriting a 4 MiB file
// through WriteText with SIGKILL at random moments, 200 times (20 with
// -short), on four files at once. After every kill the file must hold one
// complete version: exactly 4 MiB of a single fill byte. Staging directories
// left behind by killed writers are counted, logged and removed.
func TestCrashConsistency(t *testing.T) {
	kills := 200
	if testing.Short() {
		kills = 20
	}
	const workers = 4
	// maxKillDelay spans a few write cycles after the helper is ready (the
	// writer keeps a core busy meanwhile, so longer delays only cost time).
	const maxKillDelay = 40 * time.Millisecond
	start := time.Now()
	var (
		mu       sync.Mutex
		residue  int
		midFirst int // killed before the first write completed
		writes   int
	)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := crashDir(t)
			// Each worker's helpers keep their own staging registry, so that
			// a helper's start sweeps only its own worker's residue (which the
			// worker counts and removes itself).
			env := []string{crashHelperEnv + "=" + dir, "XDG_STATE_HOME=" + t.TempDir()}
			target := filepath.Join(dir, crashTarget)
			if err := os.WriteFile(target, bytes.Repeat([]byte{crashFills[0]}, crashFileSize), 0o644); err != nil {
				t.Error(err)
				return
			}
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			for i := range kills / workers {
				done, err := killWriter(env, time.Duration(rng.Int64N(int64(maxKillDelay))))
				if err != nil {
					t.Errorf("worker %d kill %d: %v", w, i, err)
					return
				}
				if err := checkComplete(target); err != nil {
					t.Errorf("worker %d kill %d (after %d writes): %v", w, i, done, err)
					return
				}
				n, err := removeStaging(dir)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				writes += done
				residue += n
				if done == 0 {
					midFirst++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d kills in %v: %d completed writes, %d kills before the first write completed, %d staging directories left behind",
		kills, time.Since(start).Round(time.Millisecond), writes, midFirst, residue)
}

// killWriter starts the helper with env added to the environment, waits for
// "ready", lets it run for delay, kills it with SIGKILL and returns how many
// writes it completed.
func killWriter(env []string, delay time.Duration) (int, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, fmt.Errorf("helper did not start: %q", lines.Text())
	}
	time.Sleep(delay)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return 0, err
	}
	done := 0
	for lines.Scan() {
		if lines.Text() != "w" {
			return 0, fmt.Errorf("helper: %s", lines.Text())
		}
		done++
	}
	_ = cmd.Wait() // "signal: killed"
	return done, nil
}

// checkComplete verifies the file is exactly one complete version.
func checkComplete(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(b) != crashFileSize {
		return fmt.Errorf("torn file: %d bytes", len(b))
	}
	if bytes.Count(b, b[:1]) != len(b) || !strings.ContainsRune(crashFills, rune(b[0])) {
		return fmt.Errorf("torn file: mixed content starting with %q", b[0])
	}
	return nil
}

// crashDir is a fresh directory, on tmpfs (/dev/shm) when there is one:
// SIGKILL leaves the page cache intact, so what is under test (a reader never
// sees a torn or missing file, whatever instruction the writer died at) does
// not depend on the disk, and tmpfs keeps 200 rounds of 4 MiB writes fast.
func crashDir(t *testing.T) string {
	t.Helper()
	if dir, err := os.MkdirTemp("/dev/shm", "hostfs-crash-"); err == nil {
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
		return dir
	}
	return t.TempDir()
}

// removeStaging counts and removes the staging directories (and linked temp
// files) a killed writer left behind (so tmpfs memory does not pile up).
func removeStaging(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmpdir") || strings.HasSuffix(e.Name(), ".tmp") {
			n++
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

func fsResolveOptions() fs.ResolveOptions { return fs.ResolveOptions{} }
