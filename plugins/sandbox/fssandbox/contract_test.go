package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// The fence's contract cases, one test each (docs/conformance/sandbox.md maps them).

// The capability fact: reports the deployment default mode; captured at construction.
func TestCapabilityFact(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	assert.Equal(t, sandbox.WorkspaceWrite, w.fs.SandboxMode())
	w.policy.setDefault(sandbox.ReadOnly)
	assert.Equal(t, sandbox.WorkspaceWrite, w.fs.SandboxMode(), "read once, when the provider was built")
	mode, confines := sandbox.ConfiningMode(w.fs)
	assert.True(t, confines, "offered through the sandbox seam")
	assert.Equal(t, sandbox.WorkspaceWrite, mode)
}

// Read-only: denies write, leaving no file on disk.
func TestReadOnlyDeniesWrite(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	path := filepath.Join(w.ws, "denied.txt")
	requireCode(t, w.write(t, path, "x"), fs.CodeSandboxDenied)
	assert.NoFileExists(t, path)
}

// Read-only: denies edit of an existing file (the content is unchanged).
func TestReadOnlyDeniesEdit(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	path := filepath.Join(w.ws, "file.txt")
	require.NoError(t, os.WriteFile(path, []byte("original"), 0o644))
	requireCode(t, w.edit(t, path, "original", "changed"), fs.CodeSandboxDenied)
	assert.Equal(t, "original", readDisk(t, path))
}

// Read-only: allows reads (every mode permits reading).
func TestReadOnlyAllowsReads(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	path := filepath.Join(w.ws, "readable.txt")
	require.NoError(t, os.WriteFile(path, []byte("hello"), 0o644))
	got, err := w.fs.ReadText(w.ctx, w.target(t, path))
	require.NoError(t, err)
	assert.Equal(t, fs.ReadOutcome{Text: "hello"}, got)
}

// Workspace-write containment: a write under the workspace lands.
func TestWorkspaceWriteLands(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.ws, "nested", "ok.txt")
	out, err := w.fs.WriteText(w.ctx, w.target(t, path), "inside", nil)
	require.NoError(t, err)
	assert.Equal(t, fs.OperationCreate, out.Operation)
	assert.Equal(t, "inside", readDisk(t, path))
}

// A write to the platform temp area lands (parity with the bash runner grant).
func TestTempAreaLands(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	dir, err := os.MkdirTemp(os.TempDir(), "cordon-fssbx-tmp-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	path := filepath.Join(dir, "temp.txt")
	require.NoError(t, w.write(t, path, "temp"))
	assert.Equal(t, "temp", readDisk(t, path))
}

// An absolute path outside the workspace is denied, no file created.
func TestAbsoluteOutsideDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.out, "escape.txt")
	requireCode(t, w.write(t, path, "x"), fs.CodeSandboxDenied)
	assert.NoFileExists(t, path)
}

// A `..` traversal out of the workspace is denied.
func TestDotDotTraversalDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := w.ws + "/../sibling-escape.txt"
	requireCode(t, w.write(t, path, "x"), fs.CodeSandboxDenied)
	assert.NoFileExists(t, filepath.Join(w.base, "sibling-escape.txt"))
}

// A symlinked directory inside the workspace pointing OUT is denied.
func TestSymlinkedDirOutDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "link")))
	requireCode(t, w.write(t, filepath.Join(w.ws, "link", "f.txt"), "x"), fs.CodeSandboxDenied)
	assert.NoFileExists(t, filepath.Join(w.out, "f.txt"))
}

// A NEW file created under a symlinked-out directory is denied (deepest-ancestor realpath).
func TestNewFileUnderSymlinkedOutDirDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	require.NoError(t, os.Symlink(w.out, filepath.Join(w.ws, "link")))
	requireCode(t, w.write(t, filepath.Join(w.ws, "link", "newdir", "deep.txt"), "x"), fs.CodeSandboxDenied)
	assert.NoDirExists(t, filepath.Join(w.out, "newdir"))
}

// An edit outside the workspace is denied; the original is untouched.
func TestEditOutsideDenied(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.out, "file.txt")
	require.NoError(t, os.WriteFile(path, []byte("original"), 0o644))
	requireCode(t, w.edit(t, path, "original", "x"), fs.CodeSandboxDenied)
	assert.Equal(t, "original", readDisk(t, path))
}

// An edit inside the workspace lands.
func TestEditInsideLands(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	path := filepath.Join(w.ws, "edit.txt")
	require.NoError(t, os.WriteFile(path, []byte("original"), 0o644))
	out, err := w.fs.EditText(w.ctx, w.target(t, path), fs.EditRequest{OldString: "original", NewString: "changed"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "changed", out.After)
	assert.Equal(t, "changed", readDisk(t, path))
}

// Mutates the freshly checked identity, not a stale outside targetKey (TOCTOU direction).
func TestMutatesTheFreshIdentity(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	inside := filepath.Join(w.ws, "landed.txt")
	stale := fs.Target{DisplayPath: inside, Key: fs.TargetKey(filepath.Join(w.out, "escaped.txt"))}
	_, err := w.fs.WriteText(w.ctx, stale, "inside", nil)
	require.NoError(t, err)
	assert.Equal(t, "inside", readDisk(t, inside))
	assert.NoFileExists(t, filepath.Join(w.out, "escaped.txt"))

	// The edit direction too: the stale key names an outside file, the fresh one the inside file.
	require.NoError(t, os.WriteFile(filepath.Join(w.out, "escaped.txt"), []byte("inside"), 0o644))
	_, err = w.fs.EditText(w.ctx, stale, fs.EditRequest{OldString: "inside", NewString: "edited"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "edited", readDisk(t, inside))
	assert.Equal(t, "inside", readDisk(t, filepath.Join(w.out, "escaped.txt")))
}

// The workspace root itself passes the fence, failing only on file type.
func TestWorkspaceRootItself(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	fe := requireCode(t, w.write(t, w.ws, "x"), fs.CodeNotRegularFile)
	assert.Equal(t, `cannot write "`+w.ws+`": not a regular file`, fe.Message)
}

// Workspace-write with the filesystem root as the workspace: grants writes anywhere on that
// volume.
func TestFilesystemRootWorkspace(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	w.policy.root = "/"
	path := filepath.Join(w.base, "anywhere.txt")
	require.NoError(t, w.write(t, path, "anywhere"))
	assert.Equal(t, "anywhere", readDisk(t, path))
}

// Danger-full-access: writes anywhere, unfenced.
func TestDangerFullAccessWritesAnywhere(t *testing.T) {
	w := newWorld(t, sandbox.DangerFullAccess, nil)
	path := filepath.Join(w.out, "free.txt")
	require.NoError(t, w.write(t, path, "free"))
	assert.Equal(t, "free", readDisk(t, path))
}

// A workspace-write stamp on a read-only default lets a contained write land for that call
// only.
func TestWorkspaceWriteStamp(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	path := filepath.Join(w.ws, "escalated.txt")
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, w.policyFor(sandbox.WorkspaceWrite)), w.target(t, path), "granted", nil)
	require.NoError(t, err)
	assert.Equal(t, "granted", readDisk(t, path))
	requireCode(t, w.write(t, filepath.Join(w.ws, "plain.txt"), "x"), fs.CodeSandboxDenied)
	// A granted workspace-write is still contained.
	_, err = w.fs.WriteText(sandbox.WithPolicy(w.ctx, w.policyFor(sandbox.WorkspaceWrite)), w.target(t, filepath.Join(w.out, "x.txt")), "x", nil)
	requireDenied(t, err, filepath.Join(w.out, "x.txt"), sandbox.WorkspaceWrite)
}

// A danger-full-access stamp bypasses the fence for that call.
func TestDangerStamp(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	path := filepath.Join(w.out, "granted-full.txt")
	_, err := w.fs.WriteText(sandbox.WithPolicy(w.ctx, w.policyFor(sandbox.DangerFullAccess)), w.target(t, path), "full", nil)
	require.NoError(t, err)
	assert.Equal(t, "full", readDisk(t, path))
}

// The denial is a structured FsError distinct from a host permission error.
func TestDenialIsAStructuredFsError(t *testing.T) {
	w := newWorld(t, sandbox.ReadOnly, nil)
	err := w.write(t, filepath.Join(w.ws, "x.txt"), "x")
	fe := requireCode(t, err, fs.CodeSandboxDenied)
	assert.Equal(t, fs.ErrorName, fe.Name())
	assert.Equal(t, "FS_SANDBOX_DENIED", fe.Code())
	assert.ErrorIs(t, err, fs.ErrSandboxDenied)
	assert.NotErrorIs(t, err, fs.ErrPermissionDenied)
}

// New refuses to build without a policy service.
func TestNewNeedsAPolicy(t *testing.T) {
	_, err := fssandbox.New(fssandbox.Config{}, nil, nil)
	require.ErrorIs(t, err, fssandbox.ErrNoPolicy)
}
