package staging_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

const (
	helperRegistryEnv = "CORDON_STAGING_HELPER_REGISTRY"
	helperDirEnv      = "CORDON_STAGING_HELPER_DIR"
	helperCyclesEnv   = "CORDON_STAGING_HELPER_CYCLES"
)

// TestHelperRegistryProcess is the child of the registry tests: it records, creates and removes
// helperCyclesEnv staging directories in helperDirEnv as a writer does, leaves one behind as a
// failed removal would ("left <path>"), keeps one in flight through all of them ("early <path>")
// and one after them ("live <path>") with a partial temp file in it, prints "ready" and waits for
// stdin to close. It does nothing in a normal run.
func TestHelperRegistryProcess(t *testing.T) {
	reg := os.Getenv(helperRegistryEnv)
	if reg == "" {
		return
	}
	dir := os.Getenv(helperDirEnv)
	cycles, _ := strconv.Atoi(os.Getenv(helperCyclesEnv))
	r := staging.For(reg, nil)
	mk := func() string {
		p := filepath.Join(dir, staging.Name("doc.txt"))
		r.Begin(p)
		require.NoError(t, os.Mkdir(p, 0o700))
		return p
	}
	left := mk()
	r.End(left, false)
	early := mk() // in flight across every compaction
	for range cycles {
		p := mk()
		require.NoError(t, os.Remove(p))
		r.End(p, true)
	}
	live := mk()
	require.NoError(t, os.WriteFile(filepath.Join(live, "doc.txt.tmp"), []byte("partial"), 0o600))
	fmt.Printf("left %s\nearly %s\nlive %s\nready\n", left, early, live)
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}

// startHelper starts the helper on the registry reg and the directory dir, and returns it with
// the paths it left and keeps in flight.
func startHelper(t *testing.T, reg, dir string, cycles int) (cmd *exec.Cmd, left, early, live string) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^TestHelperRegistryProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperRegistryEnv+"="+reg, helperDirEnv+"="+dir, helperCyclesEnv+"="+strconv.Itoa(cycles))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() && lines.Text() != "ready" {
		if p, ok := strings.CutPrefix(lines.Text(), "left "); ok {
			left = p
		} else if p, ok := strings.CutPrefix(lines.Text(), "early "); ok {
			early = p
		} else if p, ok := strings.CutPrefix(lines.Text(), "live "); ok {
			live = p
		} else {
			t.Fatalf("helper: %s", lines.Text())
		}
	}
	require.NotEmpty(t, live, "the helper got ready")
	return cmd, left, early, live
}

// registryFiles lists the registry files in reg with their sizes.
func registryFiles(t *testing.T, reg string) map[string]int64 {
	t.Helper()
	entries, err := os.ReadDir(reg)
	require.NoError(t, err)
	out := map[string]int64{}
	for _, e := range entries {
		info, err := e.Info()
		require.NoError(t, err)
		out[e.Name()] = info.Size()
	}
	return out
}

// A sweep never touches the staging directories of a live process; once the process is killed,
// the next sweep removes what it left (in flight, before and after compactions, and left behind by
// a failed removal) and its
// registry file. 2,000 writes through the registry leave a file of a few records, not 2,000.
func TestSweepRemovesOnlyWhatDeadProcessesLeft(t *testing.T) {
	reg, dir := filepath.Join(t.TempDir(), "registry"), t.TempDir()
	cmd, left, early, live := startHelper(t, reg, dir, 2000)

	files := registryFiles(t, reg)
	require.Len(t, files, 1, "one registry file per process")
	for name, size := range files {
		assert.True(t, strings.HasPrefix(name, strconv.Itoa(cmd.Process.Pid)+"."), name)
		assert.Less(t, size, int64(300*(len(live)+2)), "compacted: at most a few hundred records")
	}

	assert.Zero(t, staging.Sweep(reg, nil))
	assert.DirExists(t, live, "a live process's staging directory stays")
	assert.DirExists(t, early)
	assert.DirExists(t, left)

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	assert.Equal(t, 3, staging.Sweep(reg, nil))
	assert.NoDirExists(t, live)
	assert.NoDirExists(t, early, "an entry in flight survives the compactions")
	assert.NoDirExists(t, left, "so does one left behind")
	assert.Empty(t, registryFiles(t, reg), "the dead process's registry file is gone")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing else was created or left")
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

const uuid = "0b8f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4"

// writeRegistry writes a registry file of pid in reg with the given records ("h"+host first).
func writeRegistry(t *testing.T, reg string, pid int, records ...string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(reg, 0o700))
	path := filepath.Join(reg, strconv.Itoa(pid)+"."+uuid+".staging")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(records, "\x00")+"\x00"), 0o600))
	return path
}

func stagingDir(t *testing.T, dir string, pid int) string {
	t.Helper()
	p := filepath.Join(dir, ".doc.txt."+strconv.Itoa(pid)+"."+uuid+".tmpdir")
	require.NoError(t, os.MkdirAll(filepath.Join(p, "sub"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(p, "sub", "doc.txt.tmp"), []byte("partial"), 0o600))
	return p
}

// A registry file whose lock is held (its process lives in another pid namespace, where its
// pid means nothing here) is left alone; a registry written on another host too.
func TestSweepHonoursLocksAndHosts(t *testing.T) {
	reg, dir := filepath.Join(t.TempDir(), "registry"), t.TempDir()
	pid := deadPID(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	d := stagingDir(t, dir, pid)
	locked := writeRegistry(t, reg, pid, "h"+host, "+"+d)
	f, err := os.Open(locked)
	require.NoError(t, err)
	require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX))
	assert.Zero(t, staging.Sweep(reg, nil))
	assert.DirExists(t, d)
	assert.FileExists(t, locked)
	require.NoError(t, f.Close())

	other := filepath.Join(t.TempDir(), "registry")
	elsewhere := writeRegistry(t, other, pid, "h"+host+".elsewhere", "+"+d)
	assert.Zero(t, staging.Sweep(other, nil))
	assert.DirExists(t, d)
	assert.FileExists(t, elsewhere)

	assert.Equal(t, 1, staging.Sweep(reg, nil), "unlocked: swept")
	assert.NoDirExists(t, d)
	assert.NoFileExists(t, locked)
}

// Only a real directory with a staging name of the dead process is removed: not one named for
// another process, not a symlink or a file under a staging name, not a relative or unclean
// path, not an entry struck off; a torn last record is ignored.
func TestSweepRemovesOnlyStagingDirectoriesOfTheProcess(t *testing.T) {
	reg, dir := filepath.Join(t.TempDir(), "registry"), t.TempDir()
	pid, other := deadPID(t), deadPID(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	ours := stagingDir(t, dir, pid)
	theirs := stagingDir(t, t.TempDir(), other)
	abandoned := stagingDir(t, t.TempDir(), pid)
	target := t.TempDir()
	link := filepath.Join(t.TempDir(), ".doc.txt."+strconv.Itoa(pid)+"."+uuid+".tmpdir")
	require.NoError(t, os.Symlink(target, link))
	file := filepath.Join(t.TempDir(), ".doc.txt."+strconv.Itoa(pid)+"."+uuid+".tmpdir")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	unclean := stagingDir(t, t.TempDir(), pid)
	path := writeRegistry(t, reg, pid, "h"+host,
		"+"+ours, "+"+theirs, "+"+link, "+"+file, "+"+filepath.Base(ours), "+"+filepath.Dir(unclean)+"/./"+filepath.Base(unclean),
		"+"+abandoned, "-"+abandoned, "+"+filepath.Join(dir, "missing"))
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("+" + unclean) // torn: no terminating NUL
	require.NoError(t, err)
	require.NoError(t, f.Close())

	assert.Equal(t, 1, staging.Sweep(reg, nil))
	assert.NoDirExists(t, ours)
	for _, kept := range []string{theirs, abandoned, target, unclean} {
		assert.DirExists(t, kept)
	}
	assert.FileExists(t, file)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	assert.NoFileExists(t, path)
}

// A linked temp file (FileName) of the dead process is removed when it is a regular file named for
// that pid; a directory, a symlink or another pid's file under such a name is left as it is.
func TestSweepRemovesLinkedTempFilesOfTheProcess(t *testing.T) {
	reg, dir := filepath.Join(t.TempDir(), "registry"), t.TempDir()
	pid, other := deadPID(t), deadPID(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	name := func(p int) string {
		return filepath.Join(dir, ".doc.txt."+strconv.Itoa(p)+"."+staging.RandomUUID()+".tmp")
	}
	ours, theirs, asDir, asLink := name(pid), name(other), name(pid), name(pid)
	for _, f := range []string{ours, theirs} {
		require.NoError(t, os.WriteFile(f, []byte("complete"), 0o644))
	}
	require.NoError(t, os.Mkdir(asDir, 0o700))
	require.NoError(t, os.Symlink(theirs, asLink))
	writeRegistry(t, reg, pid, "h"+host, "+"+ours, "+"+theirs, "+"+asDir, "+"+asLink)

	assert.Equal(t, 1, staging.Sweep(reg, nil))
	assert.NoFileExists(t, ours)
	assert.FileExists(t, theirs)
	assert.DirExists(t, asDir)
	fi, err := os.Lstat(asLink)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	pid2, ok := staging.FileOwnerPID(filepath.Base(staging.FileName("doc.txt")))
	assert.True(t, ok)
	assert.Equal(t, os.Getpid(), pid2)
	_, ok = staging.FileOwnerPID(filepath.Base(staging.Name("doc.txt")))
	assert.False(t, ok, "a staging directory's name is not a temp file's")
}

// A registry file with no complete record (its process died right after creating it) and the
// files of live processes: the first is removed, the others kept; names that are not registry
// files are ignored.
func TestSweepEmptyAndForeignFiles(t *testing.T) {
	reg := filepath.Join(t.TempDir(), "registry")
	empty := writeRegistry(t, reg, deadPID(t), "h")
	require.NoError(t, os.WriteFile(empty, []byte("hhal"), 0o600))
	live := writeRegistry(t, reg, os.Getppid(), "hsomewhere")
	stray := filepath.Join(reg, "notes.txt")
	require.NoError(t, os.WriteFile(stray, nil, 0o600))
	assert.Zero(t, staging.Sweep(reg, nil))
	assert.NoFileExists(t, empty)
	assert.FileExists(t, live)
	assert.FileExists(t, stray)
	assert.Zero(t, staging.Sweep(filepath.Join(t.TempDir(), "missing"), nil), "no registry directory yet")
}

// The nil registry (no state directory) records nothing and never fails.
func TestNilRegistry(t *testing.T) {
	var r *staging.Registry
	assert.Nil(t, staging.For("", nil))
	r.Begin("/x")
	r.Abandon("/x")
	r.End("/x", true)
}

// A registry Cordon did not write is not acted on: a FIFO named like a registry file does not
// block the sweep, a file others can write or of another uid is left, and a registry directory
// others can write is not swept at all (docs/journal-threat-model.md).
func TestSweepRefusesWhatCordonDidNotWrite(t *testing.T) {
	reg, dir := filepath.Join(t.TempDir(), "registry"), t.TempDir()
	pid := deadPID(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	ours := stagingDir(t, dir, pid)
	path := writeRegistry(t, reg, pid, "h"+host, "+"+ours)
	require.NoError(t, syscall.Mkfifo(filepath.Join(reg, strconv.Itoa(deadPID(t))+"."+uuid+".staging"), 0o600))

	require.NoError(t, os.Chmod(path, 0o666))
	assert.Zero(t, staging.Sweep(reg, nil), "a FIFO is skipped without blocking; a file others can write is not run")
	assert.DirExists(t, ours)
	require.NoError(t, os.Chmod(path, 0o600))

	require.NoError(t, os.Chmod(reg, 0o777))
	assert.Zero(t, staging.Sweep(reg, nil), "a directory others can write is not swept")
	assert.DirExists(t, ours)
	require.NoError(t, os.Chmod(reg, 0o700))

	if os.Geteuid() == 0 {
		require.NoError(t, os.Chown(path, 65534, 65534))
		assert.Zero(t, staging.Sweep(reg, nil), "a file of another uid is not run")
		assert.DirExists(t, ours)
		require.NoError(t, os.Chown(path, 0, 0))
		require.NoError(t, os.Chown(ours, 65534, 65534))
		assert.Zero(t, staging.Sweep(reg, nil), "a directory of another uid is not removed")
		assert.DirExists(t, ours)
		require.NoError(t, os.Chown(ours, 0, 0))
		writeRegistry(t, reg, pid, "h"+host, "+"+ours)
	}
	assert.Equal(t, 1, staging.Sweep(reg, nil))
	assert.NoDirExists(t, ours)
}
