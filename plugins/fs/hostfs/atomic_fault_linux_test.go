package hostfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Real (not injected) failures of the file system under fs-local's writes,
// each in a child process: a file size limit (EFBIG, any user), and, where
// the child may mount in a private mount namespace (root), a tiny tmpfs that
// runs out of blocks or inodes (ENOSPC at the write, at the staging mkdir, at
// the temp file's create, at the guarded link) and a read-only one (EROFS).
// writeFileAtomic returns the raw OS error (a failed guarded link with nothing
// at the target: FS_IO_ERROR, spec 2.8 step 13); through the provider every
// failure is coded, names the display path and says what to do, never the
// staging path (docs/fs.md, "Errors"). The target keeps its old content, the
// space and inodes the write took are given back (no staging residue) and no
// descriptor leaks.

const (
	faultScenarioEnv = "CORDON_FSLOCAL_FAULT"
	faultDirEnv      = "CORDON_FSLOCAL_FAULT_DIR"
	// faultTmpfileEnv, when set, runs a scenario through the unnamed temp file (O_TMPFILE) a
	// write tries first, instead of the staging directory it falls back to.
	faultTmpfileEnv = "CORDON_FSLOCAL_FAULT_TMPFILE"
	faultDone       = "fault scenario checked: "
	faultNoMount    = "fault scenario skipped: cannot mount"
)

// faultScenarios maps a scenario to its tmpfs mount options ("" = no mount).
var faultScenarios = []struct{ name, mount string }{
	{"efbig", ""},
	{"enospc-data", "size=128k"},
	{"enospc-staging", "size=128k,nr_inodes=2"}, // the root and the target
	{"enospc-temp", "size=128k,nr_inodes=3"},    // ... and the staging directory
	{"enospc-link", "size=128k,nr_inodes=4"},    // ... and the temp file; tmpfs charges an inode for a second link
	{"erofs", "size=128k"},
}

func TestAtomicRealFaults(t *testing.T) {
	for _, v := range []struct{ name, env string }{{"staging", ""}, {"tmpfile", "1"}} {
		t.Run(v.name, func(t *testing.T) { realFaults(t, v.env) })
	}
}

func realFaults(t *testing.T, tmpfile string) {
	for _, sc := range faultScenarios {
		if tmpfile != "" && (sc.name == "enospc-temp" || sc.name == "enospc-link") {
			continue // steps of the staging directory: an unnamed file's first link takes no inode
		}
		t.Run(sc.name, func(t *testing.T) {
			dir := tempDir(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFaultProcess$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), faultScenarioEnv+"="+sc.name, faultDirEnv+"="+dir, faultTmpfileEnv+"="+tmpfile)
			if sc.mount != "" {
				cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
			}
			out, err := cmd.CombinedOutput()
			if sc.mount != "" && (errors.Is(err, unix.EPERM) || strings.Contains(string(out), faultNoMount)) {
				t.Skipf("no private tmpfs here: %v %s", err, out)
			}
			require.NoError(t, err, "%s", out)
			require.Contains(t, string(out), faultDone+sc.name, "the child ran the scenario")
		})
	}
}

// TestHelperFaultProcess is the child of TestAtomicRealFaults; it does
// nothing in a normal test run.
func TestHelperFaultProcess(t *testing.T) {
	scenario, dir := os.Getenv(faultScenarioEnv), os.Getenv(faultDirEnv)
	if scenario == "" {
		return
	}
	mounted := false // a private tmpfs: its free blocks and inodes are ours alone
	for _, sc := range faultScenarios {
		if sc.name == scenario && sc.mount != "" {
			if err := unix.Mount("none", dir, "tmpfs", 0, sc.mount); err != nil {
				fmt.Println(faultNoMount, err)
				return
			}
			mounted = true
		}
	}
	target := filepath.Join(dir, "t")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o640))
	tmpfile := os.Getenv(faultTmpfileEnv) != ""
	var hooks *atomicHooks // nil: the unnamed temp file first
	if !tmpfile {
		hooks = &atomicHooks{} // any hook set: the staging directory
	}
	big := strings.Repeat("B", 1<<20)
	ctx := context.Background()
	// write runs one replacement and one guarded creation of a new file and
	// checks what every failure must leave: the old target only, no leaked
	// descriptor, the space back (on a private tmpfs). It returns both errors.
	write := func(content string) (replace, create error) {
		t.Helper()
		var before unix.Statfs_t
		require.NoError(t, unix.Statfs(dir, &before))
		fds := openFDs(t)
		replace = writeFileAtomic(ctx, target, content, atomicOptions{keep: &keptMeta{uid: -1, gid: -1, mode: 0o640}, hooks: hooks})
		create = writeFileAtomic(ctx, filepath.Join(dir, "n"), content, atomicOptions{createIfAbsent: true, display: "n", hooks: hooks})
		assert.Equal(t, "old", string(mustRead(t, target)))
		requireNoLeak(t, dir, []string{"t"}, fds)
		var after unix.Statfs_t
		require.NoError(t, unix.Statfs(dir, &after))
		if mounted {
			assert.Equal(t, before.Bfree, after.Bfree, "blocks given back")
			assert.Equal(t, before.Ffree, after.Ffree, "inodes given back")
		}
		return replace, create
	}
	// staged reports whether path is dir/.t.<...>.tmpdir/<base>.tmp (temp) or
	// dir/.<base>.<...>.tmpdir (staging).
	// With the unnamed temp file, both are dir/(unnamed).
	staged := func(path, base string, temp bool) bool {
		if tmpfile {
			return path == filepath.Join(dir, "(unnamed)")
		}
		if temp {
			if filepath.Base(path) != base+".tmp" {
				return false
			}
			path = filepath.Dir(path)
		}
		name := filepath.Base(path)
		return filepath.Dir(path) == dir && strings.HasPrefix(name, "."+base+".") && strings.HasSuffix(name, ".tmpdir")
	}
	requireRaw := func(err error, op string, errno unix.Errno, base string, temp bool) {
		t.Helper()
		var pe *os.PathError
		require.ErrorAs(t, err, &pe)
		assert.Empty(t, fs.CodeOf(err), "raw OS error")
		assert.Equal(t, op, pe.Op)
		assert.Equal(t, errno, pe.Err)
		assert.True(t, staged(pe.Path, base, temp), "%s names %s", op, pe.Path)
	}

	// throughProvider runs a replacement, a guarded creation and an edit
	// through the provider: each fails with code and the message
	// `cannot <verb> "<display>": <reason>`, errno as the cause.
	throughProvider := func(content string, code fs.Code, errno unix.Errno) {
		t.Helper()
		p, err := New(Config{Cwd: dir}, nil)
		require.NoError(t, err)
		p.hooks = hooks
		tg, err := p.Resolve(ctx, "t", fs.ResolveOptions{})
		require.NoError(t, err)
		created, err := p.Resolve(ctx, "n", fs.ResolveOptions{})
		require.NoError(t, err)
		check := func(err error, verb string, tg fs.Target) {
			t.Helper()
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, code, fe.Kind)
			assert.Equal(t, "cannot "+verb+` "`+tg.DisplayPath+`": `+fs.OSReason(errno), fe.Message)
			assert.NotContains(t, fe.Message, ".tmpdir", "no staging path")
			assert.ErrorIs(t, err, errno)
		}
		_, err = p.WriteText(ctx, tg, content, nil)
		check(err, "write", tg)
		_, err = p.EditText(ctx, tg, fs.EditRequest{OldString: "old", NewString: content}, nil)
		check(err, "edit", tg)
		_, err = p.WriteText(ctx, created, content, fs.CreateIfAbsent())
		check(err, "write", created)
		assert.Zero(t, p.lockCount())
		assert.Equal(t, "old", string(mustRead(t, target)))
		assert.NoFileExists(t, filepath.Join(dir, "n"))
	}

	switch scenario {
	case "efbig":
		require.NoError(t, unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: 64 << 10, Max: 64 << 10}))
		replace, create := write(big)
		requireRaw(replace, "write", unix.EFBIG, "t", true)
		requireRaw(create, "write", unix.EFBIG, "n", true)
		throughProvider(big, fs.CodeIOError, unix.EFBIG)
	case "enospc-data":
		replace, create := write(big)
		requireRaw(replace, "write", unix.ENOSPC, "t", true)
		requireRaw(create, "write", unix.ENOSPC, "n", true)
		throughProvider(big, fs.CodeIOError, unix.ENOSPC)
	case "enospc-staging":
		replace, create := write("small")
		op := "mkdir" // of the staging directory, or the open of the unnamed file
		if tmpfile {
			op = "open"
		}
		requireRaw(replace, op, unix.ENOSPC, "t", false)
		requireRaw(create, op, unix.ENOSPC, "n", false)
		throughProvider("small", fs.CodeIOError, unix.ENOSPC)
		err := writeFileAtomic(ctx, filepath.Join(dir, "sub", "x"), "v", atomicOptions{})
		assert.Equal(t, &os.PathError{Op: "mkdir", Path: filepath.Join(dir, "sub"), Err: unix.ENOSPC}, err)
	case "enospc-temp":
		replace, create := write("small")
		requireRaw(replace, "open", unix.ENOSPC, "t", true)
		requireRaw(create, "open", unix.ENOSPC, "n", true)
		throughProvider("small", fs.CodeIOError, unix.ENOSPC)
	case "enospc-link":
		// A real link(2) failure with nothing at the target (as on a file
		// system without hard links): FS_IO_ERROR with the link error.
		var before unix.Statfs_t
		require.NoError(t, unix.Statfs(dir, &before))
		fds := openFDs(t)
		n := filepath.Join(dir, "n")
		err := writeFileAtomic(ctx, n, "small", atomicOptions{createIfAbsent: true, display: "shown/n", hooks: hooks})
		var le *os.LinkError
		require.ErrorAs(t, err, &le)
		assert.Equal(t, "link", le.Op)
		assert.True(t, staged(le.Old, "n", true), le.Old)
		assert.Equal(t, n, le.New)
		assert.Equal(t, unix.ENOSPC, le.Err)
		var fe *fs.Error
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeIOError, fe.Kind)
		assert.Equal(t, `cannot write "shown/n": no space left on device — free some space, then retry`, fe.Message)
		// The same through the provider, with the display path.
		p, perr := New(Config{Cwd: dir}, nil)
		require.NoError(t, perr)
		p.hooks = hooks
		tg, perr := p.Resolve(ctx, "n", fs.ResolveOptions{})
		require.NoError(t, perr)
		_, err = p.WriteText(ctx, tg, "small", fs.CreateIfAbsent())
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, fs.CodeIOError, fe.Kind)
		assert.Equal(t, `cannot write "`+tg.DisplayPath+`": no space left on device — free some space, then retry`, fe.Message)
		assert.ErrorIs(t, err, unix.ENOSPC)
		assert.Zero(t, p.lockCount())
		// A plain replacement still works: rename needs no inode.
		require.NoError(t, writeFileAtomic(ctx, target, "new", atomicOptions{}))
		assert.Equal(t, "new", string(mustRead(t, target)))
		requireNoLeak(t, dir, []string{"t"}, fds)
		var after unix.Statfs_t
		require.NoError(t, unix.Statfs(dir, &after))
		assert.Equal(t, before.Ffree, after.Ffree, "inodes given back")
	case "erofs":
		require.NoError(t, unix.Mount("none", dir, "tmpfs", unix.MS_REMOUNT|unix.MS_RDONLY, ""))
		replace, create := write("small")
		op := "mkdir"
		if tmpfile {
			op = "open"
		}
		requireRaw(replace, op, unix.EROFS, "t", false)
		requireRaw(create, op, unix.EROFS, "n", false)
		throughProvider("small", fs.CodePermissionDenied, unix.EROFS)
		err := writeFileAtomic(ctx, filepath.Join(dir, "sub", "x"), "v", atomicOptions{})
		assert.Equal(t, &os.PathError{Op: "mkdir", Path: filepath.Join(dir, "sub"), Err: unix.EROFS}, err)
	default:
		t.Fatalf("unknown scenario %q", scenario)
	}
	if !t.Failed() {
		fmt.Println(faultDone + scenario)
	}
}
