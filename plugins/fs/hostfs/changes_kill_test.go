package hostfs_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// The change set of the kill test: killFiles-2 updates, one create and one delete.
const killFiles = 40

// Environment of the kill test's child process.
const (
	killChildEnv = "CORDON_TEST_TXN_CHILD" // "apply" or "recover"
	killDirEnv   = "CORDON_TEST_TXN_DIR"   // the workspace
	killStepEnv  = "CORDON_TEST_TXN_STEP"  // apply: kill itself after this publication step (0: never)
)

// TestHelperChangeSet is the child of TestChangeSetSurvivesSIGKILL; it does nothing in a
// normal run.
func TestHelperChangeSet(t *testing.T) {
	mode, dir := os.Getenv(killChildEnv), os.Getenv(killDirEnv)
	if mode == "" {
		return
	}
	p, err := hostfs.New(hostfs.Config{Cwd: dir}, nil) // recovery runs here
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
	if mode == "recover" {
		os.Exit(0)
	}
	if mode == "append" {
		appendRounds(p)
		os.Exit(0)
	}
	if mode == "nested" {
		nestedKilledWhileStaging(p)
	}
	if step, _ := strconv.Atoi(os.Getenv(killStepEnv)); step > 0 {
		hostfs.SetPublishStep(p, func(n int) {
			if n == step {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		})
	}
	ctx := context.Background()
	res := func(name string) fs.Target {
		tg, err := p.Resolve(ctx, name, fs.ResolveOptions{})
		if err != nil {
			os.Exit(4)
		}
		return tg
	}
	changes := []fs.Change{
		{Kind: fs.ChangeWrite, Target: res("created.txt"), Intent: fs.CreateIfAbsent(), Content: "new\n"},
		{Kind: fs.ChangeDelete, Target: res("deleted.txt")},
	}
	for i := range killFiles - 2 {
		changes = append(changes, fs.Change{Kind: fs.ChangeUpdate, Target: res(fmt.Sprintf("f%02d.txt", i)),
			Update: func(string) (string, error) { return strings.Repeat("new\n", 200), nil }})
	}
	fmt.Println("ready")
	start := time.Now()
	if _, err := p.ApplyChanges(ctx, changes); err != nil {
		fmt.Println("error:", err)
		os.Exit(5)
	}
	fmt.Println("done", time.Since(start).Microseconds())
	os.Exit(0)
}

// seedKillWorkspace writes the files of the kill test's change set in their old state.
func seedKillWorkspace(t *testing.T, dir string) {
	writeFile(t, filepath.Join(dir, "deleted.txt"), "old\n")
	for i := range killFiles - 2 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), strings.Repeat("old\n", 200))
	}
}

// killState classifies the workspace: how many of the set's files are in their new state and
// how many in their old one (every file is one or the other), and any other entry left.
func killState(t *testing.T, dir string) (newer, older int, extra []string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	count := func(isNew bool) {
		if isNew {
			newer++
		} else {
			older++
		}
	}
	count(seen["created.txt"])
	count(!seen["deleted.txt"])
	for i := range killFiles - 2 {
		name := fmt.Sprintf("f%02d.txt", i)
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		switch string(b) {
		case strings.Repeat("new\n", 200):
			count(true)
		case strings.Repeat("old\n", 200):
			count(false)
		default:
			t.Fatalf("%s holds neither its old nor its new content (%d bytes)", name, len(b))
		}
	}
	for name := range seen {
		if name != "created.txt" && name != "deleted.txt" && !strings.HasPrefix(name, "f") {
			extra = append(extra, name)
		}
	}
	return newer, older, extra
}

// runKillChild starts the child in mode over dir with its own state directory; with kill > 0
// it is SIGKILLed that long after it says it is ready. It returns the apply's duration when
// the child finished it.
func runKillChild(t *testing.T, mode, dir, state string, step int, kill time.Duration) time.Duration {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChangeSet$", "-test.count=1")
	// GORACE: a race-enabled child would otherwise sleep a second at exit.
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", killChildEnv+"="+mode, killDirEnv+"="+dir, killStepEnv+"="+strconv.Itoa(step),
		"XDG_STATE_HOME="+state, "CORDON_TEST_STATE_HOME="+state)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	var took time.Duration
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "ready" && kill > 0:
			time.AfterFunc(kill, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		case strings.HasPrefix(line, "done "):
			us, _ := strconv.Atoi(strings.TrimPrefix(line, "done "))
			took = time.Duration(us) * time.Microsecond
		case strings.HasPrefix(line, "error:"):
			t.Fatalf("child %s: %s", mode, line)
		}
	}
	_ = cmd.Wait()
	return took
}

// TestChangeSetSurvivesSIGKILL kills a process applying a 40-file change set 50 times, half at a
// random publication step and half after a random delay, then starts a provider once on the
// workspace (which recovers it) and counts the runs that left some files new and some old: none
// may. Also no staging directory and no journal may remain.
func TestChangeSetSurvivesSIGKILL(t *testing.T) {
	if os.Getenv(killChildEnv) != "" {
		return
	}
	const runs = 50
	// Calibrate: how long one whole apply takes here.
	cal := t.TempDir()
	seedKillWorkspace(t, cal)
	full := runKillChild(t, "apply", cal, t.TempDir(), 0, 0)
	require.NotZero(t, full, "the calibration run finished")
	if n, _, _ := killState(t, cal); n != killFiles {
		t.Fatalf("calibration run left %d of %d files new", n, killFiles)
	}
	mixed, rolledForward, rolledBack := 0, 0, 0
	for run := range runs {
		dir, state := t.TempDir(), t.TempDir()
		seedKillWorkspace(t, dir)
		if run%2 == 0 {
			runKillChild(t, "apply", dir, state, 1+rand.IntN(killFiles), 0)
		} else {
			// Up to 1.5 times a whole apply after "ready": some kills land in staging, some
			// in publication, some after the end.
			runKillChild(t, "apply", dir, state, 0, time.Duration(rand.Int64N(int64(full)*3/2)+1))
		}
		runKillChild(t, "recover", dir, state, 0, 0)
		newer, older, extra := killState(t, dir)
		switch {
		case newer > 0 && older > 0:
			mixed++
			t.Errorf("run %d: %d files new and %d old after recovery", run, newer, older)
		case newer == killFiles:
			rolledForward++
		default:
			rolledBack++
		}
		require.Empty(t, extra, "run %d: residue in the workspace", run)
		entries, _ := os.ReadDir(filepath.Join(state, "cordon", "txn"))
		var journals []string
		for _, e := range entries {
			if e.Name() != "journal.key" {
				journals = append(journals, e.Name())
			}
		}
		require.Empty(t, journals, "run %d: a journal is left", run)
	}
	t.Logf("runs=%d mixed=%d allNew=%d allOld=%d (one apply: %v)", runs, mixed, rolledForward, rolledBack, full)
	require.Zero(t, mixed)
}

// appendFiles are the files the cross-process test's children append to, named in opposite
// orders by the two children.
var appendFiles = []string{"a.txt", "b.txt", "sub/c.txt"}

const appendRoundsEach = 25

// appendRounds applies appendRoundsEach sets that each append one line to every appendFiles
// file, unguarded: a set whose read and publication another process interleaved would lose
// that process's line.
func appendRounds(p *hostfs.Provider) {
	ctx := context.Background()
	reverse := os.Getenv(killStepEnv) == "1"
	for range appendRoundsEach {
		var changes []fs.Change
		for i := range appendFiles {
			name := appendFiles[i]
			if reverse {
				name = appendFiles[len(appendFiles)-1-i]
			}
			tg, err := p.Resolve(ctx, name, fs.ResolveOptions{})
			if err != nil {
				os.Exit(4)
			}
			changes = append(changes, fs.Change{Kind: fs.ChangeUpdate, Target: tg, Update: func(s string) (string, error) { return s + "x\n", nil }})
		}
		if _, err := p.ApplyChanges(ctx, changes); err != nil {
			fmt.Println("error:", err)
			os.Exit(5)
		}
	}
}

// TestChangeSetsAcrossProcesses: two processes apply overlapping sets (in opposite orders) to the
// same files at once; the directory locks keep each set's read and publication together, so no
// line is lost and neither process deadlocks.
func TestChangeSetsAcrossProcesses(t *testing.T) {
	if os.Getenv(killChildEnv) != "" {
		return
	}
	dir, state := t.TempDir(), t.TempDir()
	for _, n := range appendFiles {
		writeFile(t, filepath.Join(dir, n), "")
	}
	outs := make(chan string, 2)
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChangeSet$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", killChildEnv+"=append", killDirEnv+"="+dir,
			killStepEnv+"="+strconv.Itoa(i), "XDG_STATE_HOME="+state, "CORDON_TEST_STATE_HOME="+state)
		go func() {
			out, err := cmd.CombinedOutput()
			if err != nil {
				outs <- fmt.Sprintf("%v: %s", err, out)
				return
			}
			outs <- ""
		}()
	}
	for range 2 {
		require.Empty(t, <-outs)
	}
	for _, n := range appendFiles {
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		require.Equal(t, strings.Repeat("x\n", 2*appendRoundsEach), string(b), n)
	}
	require.Empty(t, residue(t, dir))
}

// nestedKilledWhileStaging applies a set that creates nd/sub/x.txt and SIGKILLs its own process
// once the file is staged, before the set publishes.
func nestedKilledWhileStaging(p *hostfs.Provider) {
	ctx := context.Background()
	hostfs.SetInspectTemp(p, func(string, string) { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) })
	tg, err := p.Resolve(ctx, "nd/sub/x.txt", fs.ResolveOptions{})
	if err != nil {
		os.Exit(4)
	}
	fmt.Println("ready")
	_, _ = p.ApplyChanges(ctx, []fs.Change{{Kind: fs.ChangeWrite, Target: tg, Intent: fs.CreateIfAbsent(), Content: "new\n"}})
	os.Exit(6) // not reached: the hook killed the process
}

// TestRolledBackSetRemovesTheDirectoriesItMade: a set killed while staging a file in directories
// it created is rolled back at the next start with those directories (docs/apply_patch.md "The
// journal").
func TestRolledBackSetRemovesTheDirectoriesItMade(t *testing.T) {
	if os.Getenv(killChildEnv) != "" {
		return
	}
	dir, state := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "keep.txt"), "old\n")
	runKillChild(t, "nested", dir, state, 0, 0)
	require.DirExists(t, filepath.Join(dir, "nd", "sub"), "the child died while staging")
	runKillChild(t, "recover", dir, state, 0, 0)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"keep.txt"}, names)
}
