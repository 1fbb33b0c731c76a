package main_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// requireCoded asserts a failed run line with exactly text, code and error name.
func requireCoded(t *testing.T, r runLine, text, code, name string) {
	t.Helper()
	require.True(t, r.IsError, r.Text)
	assert.Equal(t, text, r.Text)
	if assert.NotNil(t, r.Code, text) {
		assert.Equal(t, code, *r.Code)
	}
	if assert.NotNil(t, r.ErrorName, text) {
		assert.Equal(t, name, *r.ErrorName)
	}
}

// The errors a model can act on (docs/fs.md, "Errors"), through `harness run`: each failure that
// used to reach the model as a raw Go error, or as FS_NOT_OBSERVED over a file it can never read,
// carries a code and names the file as the model asked for it; the out-of-range offset keeps the
// contract's FS_NOT_FOUND.
func TestRunErrorsAModelCanActOn(t *testing.T) {
	ws := realTemp(t)
	writeFile(t, filepath.Join(ws, "blob.bin"), "head\x00tail\n")
	writeFile(t, filepath.Join(ws, "latin1.txt"), "caf\xe9\n")
	writeFile(t, filepath.Join(ws, "one.txt"), "one\n")
	require.NoError(t, os.Symlink("loop", filepath.Join(ws, "loop")))
	p := startRun(t, "--cwd", ws)
	call := func(tool string, args map[string]any) runLine {
		return p.call(jsonLine(map[string]any{"id": 1, "tool": tool, "args": args}))
	}

	requireCoded(t, call("write", map[string]any{"file_path": "a.txt\x00../x.txt", "content": "x"}),
		`Error: cannot resolve "a.txt\x00../x.txt": the path contains a NUL byte, which no file name can hold — remove it, then retry`, "FS_NOT_FOUND", "FsError")
	requireCoded(t, call("read", map[string]any{"file_path": "loop/x.txt"}),
		`Error: cannot resolve "`+ws+`/loop/x.txt": too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop`, "FS_IO_ERROR", "FsError")
	requireCoded(t, call("write", map[string]any{"file_path": strings.Repeat("n", 256), "content": "x"}),
		`Error: cannot resolve "`+ws+"/"+strings.Repeat("n", 256)+`": file name too long — use a shorter name`, "FS_IO_ERROR", "FsError")

	requireCoded(t, call("read", map[string]any{"file_path": "blob.bin"}), `Error: cannot read "`+ws+`/blob.bin": binary file`+
		"\nIt is 10 bytes, application/octet-stream, not text: read shows only text.", "FS_NOT_TEXT", "FsError")
	requireCoded(t, call("write", map[string]any{"file_path": "blob.bin", "content": "x"}), `Error: cannot write "`+ws+`/blob.bin": binary file`, "FS_NOT_TEXT", "FsError")
	requireCoded(t, call("edit", map[string]any{"file_path": "latin1.txt", "old_string": "caf", "new_string": "x"}),
		`Error: cannot edit "`+ws+`/latin1.txt": invalid UTF-8 text`+"\nIf it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig.", "FS_NOT_TEXT", "FsError")
	requireCoded(t, call("write", map[string]any{"file_path": "one.txt", "content": "x"}),
		`Error: cannot modify "`+ws+`/one.txt": file has not been read — read the file, then retry`, "FS_NOT_OBSERVED", "FsError")

	requireCoded(t, call("read", map[string]any{"file_path": "one.txt", "offset": 3}),
		`Error: offset 3 is out of range for "`+ws+`/one.txt" (1 lines)`, "FS_NOT_FOUND", "FsError")

	assert.Equal(t, "head\x00tail\n", readFile(t, filepath.Join(ws, "blob.bin")))
	assert.Equal(t, "one\n", readFile(t, filepath.Join(ws, "one.txt")))
}

// Escalation refusals through the binary carry {SandboxEscalationError, code}, texts unchanged.
func TestRunEscalationRefusalsAreCoded(t *testing.T) {
	for _, tc := range []struct {
		approve []string
		text    string
		code    string
	}{
		{[]string{"--approve", "reject"}, rejectedText, "SANDBOX_ESCALATION_REJECTED"},
		{nil, unavailableText, "SANDBOX_ESCALATION_UNAVAILABLE"},
	} {
		ws, out := realTemp(t), sandboxtest.OutsideDir(t)
		p := startRun(t, append([]string{"--profile", "sandboxed", "--cwd", ws}, tc.approve...)...)
		target := filepath.Join(out, "outside.txt")
		r := p.call(jsonLine(map[string]any{"id": 1, "tool": "write", "args": map[string]any{"file_path": target, "content": "x\n",
			"sandbox_permissions": "danger-full-access", "justification": "The user asked for this file."}}))
		requireCoded(t, r, tc.text, tc.code, "SandboxEscalationError")
		r = p.call(jsonLine(map[string]any{"id": 2, "tool": "write", "args": map[string]any{"file_path": "in.txt", "content": "x\n",
			"sandbox_permissions": "workspace-write", "justification": "why"}}))
		requireCoded(t, r, `Error: sandbox escalation to "workspace-write" is not strictly wider than this call's current "workspace-write" mode`,
			"SANDBOX_ESCALATION_NOT_WIDER", "SandboxEscalationError")
		assert.NoFileExists(t, target)
	}
}

// A `harness run` killed with SIGKILL while it writes (holding its unnamed temp file, O_TMPFILE,
// in the workspace) leaves nothing in the workspace: no staging directory, no temp file, the target
// not created; the next `harness run` starts. (The staging directory a filesystem without
// O_TMPFILE needs, and its sweep at the next start, are pinned by hostfs
// TestStartSweepsResidueOfKilledWriters.)
func TestRunKilledMidWriteLeavesNothingAfterTheNextStart(t *testing.T) {
	ws := realTemp(t)
	content := strings.Repeat("x", 8<<20)
	killed := false
	for attempt := 0; attempt < 20 && !killed; attempt++ {
		cmd := exec.Command(harnessBin, "run", "--cwd", ws)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		go func() {
			_, _ = io.WriteString(stdin, jsonLine(map[string]any{"id": 1, "tool": "write", "args": map[string]any{"file_path": fmt.Sprintf("f%d.bin", attempt), "content": content}})+"\n")
		}()
		killed = waitForUnnamed(cmd.Process.Pid, ws, 5*time.Second)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		if killed {
			// The kill lands while the file is unnamed (nothing is left), or, when the write got
			// past its link in the meantime, between the link and the rename: the only thing left is
			// then the file under its registered temp name, which the next start removes.
			linked := regexp.MustCompile(`^\.` + regexp.QuoteMeta(fmt.Sprintf("f%d.bin.%d.", attempt, cmd.Process.Pid)) + `[0-9a-f-]+\.tmp$`)
			for _, e := range mustReadDir(t, ws) {
				assert.Regexp(t, linked, e.Name(), "a kill mid-write leaves nothing in the workspace but a linked temp file")
			}
			_, stderr, code := runHarness(t, "", "run", "--cwd", ws)
			require.Zero(t, code, stderr)
			assert.Empty(t, mustReadDir(t, ws), "the next start leaves nothing in the workspace")
		}
		for _, e := range mustReadDir(t, ws) {
			require.NoError(t, os.RemoveAll(filepath.Join(ws, e.Name())))
		}
	}
	require.True(t, killed, "a kill inside the write window")

	_, stderr, code := runHarness(t, "", "run", "--cwd", ws)
	require.Zero(t, code, stderr)
}

// waitForUnnamed polls the descriptors of process pid for an unnamed temp file in dir (readlink
// "<dir>/#<inode> (deleted)"), reporting whether one appeared before timeout.
func waitForUnnamed(pid int, dir string, timeout time.Duration) bool {
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if link, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && strings.HasPrefix(link, dir+"/#") && strings.HasSuffix(link, " (deleted)") {
				return true
			}
		}
		time.Sleep(100 * time.Microsecond)
	}
	return false
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	return entries
}
