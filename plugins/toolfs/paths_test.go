package toolfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// profiles runs fn against the local profile and the sandboxed one
// (workspace-write): call runs a tool in a session whose cwd is ws.
func profiles(t *testing.T, fn func(t *testing.T, ws string, call func(string, any) tools.Result)) {
	t.Run("local", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		fn(t, e.dir, e.call)
	})
	t.Run("sandboxed", func(t *testing.T) {
		e := newRealSandbox(t, sandbox.WorkspaceWrite, nil)
		fn(t, e.ws, e.call)
	})
}

// A NUL in file_path is refused even where a later ".." swallows the
// component holding it, with FS_NOT_FOUND naming the path as sent (the NUL
// shown as \x00) and what to do; nothing is created where the swallowed path
// points.
func TestMutationPathWithNULIsRefused(t *testing.T) {
	profiles(t, func(t *testing.T, ws string, call func(string, any) tools.Result) {
		require.NoError(t, os.Mkdir(filepath.Join(ws, "sub"), 0o755))
		for _, p := range []string{"sub/a.txt\x00../../elsewhere/x.txt", filepath.Join(ws, "sub") + "/a\x00/../../elsewhere/x.txt"} {
			want := `Error: cannot resolve "` + strings.ReplaceAll(p, "\x00", `\x00`) + `": the path contains a NUL byte, which no file name can hold — remove it, then retry`
			requireFailure(t, call("write", args{"file_path": p, "content": "x"}), want, "FS_NOT_FOUND")
			requireFailure(t, call("edit", args{"file_path": p, "old_string": "a", "new_string": "b"}), want, "FS_NOT_FOUND")
			requireFailure(t, call("read", args{"file_path": p}), want, "FS_NOT_FOUND")
		}
		assert.NoDirExists(t, filepath.Join(ws, "elsewhere"))
	})
}

// A file_path naming a directory (a trailing "/", or a last "." or ".."
// segment): write refuses it, missing or not, instead of creating a regular
// file; read, edit and write of a regular file spelled so fail at resolution
// with ENOTDIR's FS_NOT_DIRECTORY, as open(2) would; the file is untouched.
func TestPathNamingADirectoryThroughTheTools(t *testing.T) {
	profiles(t, func(t *testing.T, ws string, call func(string, any) tools.Result) {
		require.NoError(t, os.Mkdir(filepath.Join(ws, "dir"), 0o755))
		for _, p := range []string{"newdir/", "newdir/.", "dir/", "a/b/.."} {
			display := filepath.Join(ws, filepath.Clean(p))
			requireFailure(t, call("write", args{"file_path": p, "content": "x"}),
				`Error: cannot write "`+display+`": the path ends in "/" or in a "." or ".." segment, so it names a directory`, "FS_NOT_REGULAR_FILE")
		}
		assert.NoFileExists(t, filepath.Join(ws, "newdir"))
		assert.NoFileExists(t, filepath.Join(ws, "a"))
		assert.DirExists(t, filepath.Join(ws, "dir"))

		file := filepath.Join(ws, "f.txt")
		require.NoError(t, os.WriteFile(file, []byte("one\n"), 0o644))
		requireOK(t, call("read", args{"file_path": "f.txt"}))
		notDir := `Error: cannot resolve "` + file + `": not a directory, but the path ends in "/" or in a "." or ".." segment`
		requireFailure(t, call("read", args{"file_path": "f.txt/"}), notDir, "FS_NOT_DIRECTORY")
		requireFailure(t, call("edit", args{"file_path": "f.txt/", "old_string": "one", "new_string": "two"}), notDir, "FS_NOT_DIRECTORY")
		requireFailure(t, call("write", args{"file_path": "f.txt/", "content": "two"}), notDir, "FS_NOT_DIRECTORY")
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, "one\n", string(b))
	})
}
