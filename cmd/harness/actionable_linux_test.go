//go:build linux

package main_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A full disk through the binary: `harness run` in a private mount namespace whose workspace is a
// 128 KiB tmpfs. The failure names the display path and what to do, not the staging directory.
func TestRunFullDiskIsCoded(t *testing.T) {
	ws := realTemp(t)
	script := `mount -t tmpfs -o size=128k none "$1" || exit 77; shift; exec "$@"`
	cmd := exec.Command("sh", "-c", script, "sh", ws, harnessBin, "run", "--cwd", ws)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	line := jsonLine(map[string]any{"id": 1, "tool": "write", "args": map[string]any{"file_path": "big.txt", "content": strings.Repeat("B", 1<<20)}})
	cmd.Stdin = strings.NewReader(line + "\n")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 77 || errors.Is(err, syscall.EPERM) {
		t.Skipf("no private tmpfs here: %v %s", err, stderrOf(err))
	}
	require.NoError(t, err, "%s", stderrOf(err))
	var r runLine
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	requireCoded(t, r, `Error: cannot write "`+ws+`/big.txt": no space left on device — free some space, then retry`, "FS_IO_ERROR", "FsError")
	assert.NotContains(t, string(out), ".tmpdir")
}

func stderrOf(err error) string {
	if e, ok := err.(*exec.ExitError); ok {
		return string(e.Stderr)
	}
	return ""
}
