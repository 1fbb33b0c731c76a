package toolfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
