package toolfs_test

import (
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

	"github.com/cordon-dev/cordon/plugins/tools"
)

// A symlink loop on the path fails read, write and edit FS_IO_ERROR naming the display path and
// saying what to do (the ELOOP used to reach the model raw: `realpath <path>: too many levels of
// symbolic links`, with no code).
func TestSymlinkLoopThroughTheTools(t *testing.T) {
	profiles(t, func(t *testing.T, ws string, call func(string, any) tools.Result) {
		require.NoError(t, os.Symlink("loop-b", filepath.Join(ws, "loop-a")))
		require.NoError(t, os.Symlink("loop-a", filepath.Join(ws, "loop-b")))
		for _, p := range []string{"loop-a", "loop-a/child.txt"} {
			want := `Error: cannot resolve "` + filepath.Join(ws, p) + `": too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop`
			requireFailure(t, call("read", args{"file_path": p}), want, "FS_IO_ERROR")
			requireFailure(t, call("write", args{"file_path": p, "content": "x"}), want, "FS_IO_ERROR")
			requireFailure(t, call("edit", args{"file_path": p, "old_string": "a", "new_string": "b"}), want, "FS_IO_ERROR")
		}
	})
}

// A name longer than the file system takes fails FS_IO_ERROR with "use a shorter name".
func TestNameTooLongThroughTheTools(t *testing.T) {
	profiles(t, func(t *testing.T, ws string, call func(string, any) tools.Result) {
		name := strings.Repeat("n", 256)
		want := `Error: cannot resolve "` + filepath.Join(ws, name) + `": file name too long — use a shorter name`
		requireFailure(t, call("write", args{"file_path": name, "content": "x"}), want, "FS_IO_ERROR")
		requireFailure(t, call("read", args{"file_path": name}), want, "FS_IO_ERROR")
	})
}

const (
	toolFaultEnv    = "CORDON_TOOLFS_FAULT"
	toolFaultDone   = "tool fault scenario checked: "
	toolFaultNoRoot = "tool fault scenario skipped: cannot mount"
)

// A full disk (ENOSPC) and a read-only file system (EROFS), each a real tmpfs in a private mount
// namespace of a child process, reach the model coded, with the display path and what to do,
// never the staging directory's path (which the raw error named); nothing is changed.
func TestDiskFaultsThroughTheTools(t *testing.T) {
	for _, scenario := range []string{"enospc", "erofs"} {
		t.Run(scenario, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperToolFaultProcess$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), toolFaultEnv+"="+scenario)
			cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
			out, err := cmd.CombinedOutput()
			if errors.Is(err, unix.EPERM) || strings.Contains(string(out), toolFaultNoRoot) {
				t.Skipf("no private tmpfs here: %v %s", err, out)
			}
			require.NoError(t, err, "%s", out)
			require.Contains(t, string(out), toolFaultDone+scenario)
		})
	}
}

// TestHelperToolFaultProcess is the child of TestDiskFaultsThroughTheTools; it does nothing in a
// normal test run.
func TestHelperToolFaultProcess(t *testing.T) {
	scenario := os.Getenv(toolFaultEnv)
	if scenario == "" {
		return
	}
	e := newEnv(t, envOptions{})
	disk := e.path("disk")
	require.NoError(t, os.Mkdir(disk, 0o755))
	if err := unix.Mount("none", disk, "tmpfs", 0, "size=128k"); err != nil {
		fmt.Println(toolFaultNoRoot, err)
		return
	}
	t.Cleanup(func() { _ = unix.Unmount(disk, unix.MNT_DETACH) })
	e.writeFile(t, "disk/t.txt", "old\n")
	requireOK(t, e.call("read", args{"file_path": "disk/t.txt"}))
	big := strings.Repeat("B", 1<<20)
	file, created := filepath.Join(disk, "t.txt"), filepath.Join(disk, "new.txt")
	switch scenario {
	case "enospc":
		requireFailure(t, e.call("write", args{"file_path": "disk/new.txt", "content": big}),
			`Error: cannot write "`+created+`": no space left on device — free some space, then retry`, "FS_IO_ERROR")
		requireFailure(t, e.call("write", args{"file_path": "disk/t.txt", "content": big}),
			`Error: cannot write "`+file+`": no space left on device — free some space, then retry`, "FS_IO_ERROR")
		requireFailure(t, e.call("edit", args{"file_path": "disk/t.txt", "old_string": "old", "new_string": big}),
			`Error: cannot edit "`+file+`": no space left on device — free some space, then retry`, "FS_IO_ERROR")
	case "erofs":
		require.NoError(t, unix.Mount("none", disk, "tmpfs", unix.MS_REMOUNT|unix.MS_RDONLY, ""))
		requireFailure(t, e.call("write", args{"file_path": "disk/new.txt", "content": "x"}),
			`Error: cannot write "`+created+`": read-only file system — files there cannot be changed`, "FS_PERMISSION_DENIED")
		requireFailure(t, e.call("write", args{"file_path": "disk/t.txt", "content": "x"}),
			`Error: cannot write "`+file+`": read-only file system — files there cannot be changed`, "FS_PERMISSION_DENIED")
		requireFailure(t, e.call("edit", args{"file_path": "disk/t.txt", "old_string": "old", "new_string": "new"}),
			`Error: cannot edit "`+file+`": read-only file system — files there cannot be changed`, "FS_PERMISSION_DENIED")
	default:
		t.Fatalf("unknown scenario %q", scenario)
	}
	assert.Equal(t, "old\n", e.readFile(t, "disk/t.txt"))
	entries, err := os.ReadDir(disk)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no staging residue, no new file")
	if !t.Failed() {
		fmt.Println(toolFaultDone + scenario)
	}
}

// A file that read refuses as not text (a NUL in its first 8 KiB, or invalid UTF-8) can never be
// read first, so write and edit over it fail FS_NOT_TEXT saying so, not FS_NOT_OBSERVED's
// "read the file, then retry" (which invited a loop). An unread text file keeps FS_NOT_OBSERVED;
// the files are unchanged.
func TestMutationOfAFileThatIsNotText(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "blob.bin", "head\x00tail\n")
	e.writeFile(t, "latin1.txt", "caf\xe9\n")
	e.writeFile(t, "notes.txt", "text\n")
	for name, reason := range map[string]string{"blob.bin": "binary file", "latin1.txt": "invalid UTF-8 text\n" + charsetGuidance} {
		p := e.path(name)
		readReason := reason
		if name == "blob.bin" {
			readReason += "\nIt is 10 bytes, application/octet-stream, not text: read shows only text."
		}
		requireFailure(t, e.call("read", args{"file_path": name}), `Error: cannot read "`+p+`": `+readReason, "FS_NOT_TEXT")
		requireFailure(t, e.call("write", args{"file_path": name, "content": "x"}), `Error: cannot write "`+p+`": `+reason, "FS_NOT_TEXT")
		requireFailure(t, e.call("edit", args{"file_path": name, "old_string": "tail", "new_string": "x"}), `Error: cannot edit "`+p+`": `+reason, "FS_NOT_TEXT")
	}
	notRead := `Error: cannot modify "` + e.path("notes.txt") + `": file has not been read — read the file, then retry`
	requireFailure(t, e.call("write", args{"file_path": "notes.txt", "content": "x"}), notRead, "FS_NOT_OBSERVED")
	requireFailure(t, e.call("edit", args{"file_path": "notes.txt", "old_string": "text", "new_string": "x"}), notRead, "FS_NOT_OBSERVED")
	assert.Equal(t, "head\x00tail\n", e.readFile(t, "blob.bin"))
	assert.Equal(t, "caf\xe9\n", e.readFile(t, "latin1.txt"))
	assert.Equal(t, "text\n", e.readFile(t, "notes.txt"))
}
