//go:build linux

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
)

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
