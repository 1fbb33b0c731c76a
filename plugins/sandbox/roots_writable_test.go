package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// Reference roots.spec.ts, "canonicalPath resolves symlinks (an existing path realpaths)".
func TestCanonicalPathOfATempDir(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, real, sandbox.CanonicalPath(dir))
}

// Reference roots.spec.ts, "returns the spelling as-is when the path cannot be resolved".
func TestCanonicalPathUnresolvable(t *testing.T) {
	assert.Equal(t, "/does/not/exist/anywhere-xyz", sandbox.CanonicalPath("/does/not/exist/anywhere-xyz"))
}

// Reference roots.spec.ts, "read-only grants nothing"; danger-full-access and unknown modes have
// no list either (only workspace-write confines to roots).
func TestWritableRootsOtherModes(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	for _, m := range []fs.SandboxMode{fs.SandboxReadOnly, fs.SandboxDangerFullAccess, "", "yolo"} {
		assert.Empty(t, sandbox.WritableRoots(fs.SandboxPolicy{Mode: m, WorkspaceRoot: wd}), m)
	}
}

// Reference roots.spec.ts, "workspace-write grants the workspace root plus the platform temp
// areas, canonical and deduplicated".
func TestWritableRootsWorkspaceWrite(t *testing.T) {
	ws := t.TempDir()
	roots := sandbox.WritableRoots(fs.SandboxPolicy{Mode: fs.SandboxWorkspaceWrite, WorkspaceRoot: ws})
	realWS, err := filepath.EvalSymlinks(ws)
	require.NoError(t, err)
	realTmp, err := filepath.EvalSymlinks(sandbox.TempDir())
	require.NoError(t, err)
	assert.Contains(t, roots, realWS)
	assert.Contains(t, roots, sandbox.CanonicalPath("/tmp"))
	assert.Contains(t, roots, realTmp)
	assert.Equal(t, realWS, roots[0], "the workspace root comes first")
	seen := map[string]bool{}
	for _, r := range roots {
		assert.False(t, seen[r], "duplicate root %s", r)
		seen[r] = true
	}
}

// The temp area is read from the environment at every call, in Node's order, with a trailing
// separator stripped; /tmp and the temp dir collapse into one root when they coincide.
func TestWritableRootsFollowTheEnvironment(t *testing.T) {
	ws := t.TempDir()
	alt, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	policy := fs.SandboxPolicy{Mode: fs.SandboxWorkspaceWrite, WorkspaceRoot: ws}

	t.Setenv("TMPDIR", alt+"/")
	t.Setenv("TMP", "/nowhere-tmp")
	t.Setenv("TEMP", "/nowhere-temp")
	assert.Equal(t, alt, sandbox.TempDir())
	assert.Contains(t, sandbox.WritableRoots(policy), alt)

	t.Setenv("TMPDIR", "")
	assert.Equal(t, "/nowhere-tmp", sandbox.TempDir())
	t.Setenv("TMP", "")
	assert.Equal(t, "/nowhere-temp", sandbox.TempDir())
	assert.Contains(t, sandbox.WritableRoots(policy), "/nowhere-temp", "a missing temp dir keeps its spelling")
	t.Setenv("TEMP", "")
	assert.Equal(t, "/tmp", sandbox.TempDir())
	roots := sandbox.WritableRoots(policy)
	assert.Len(t, roots, 2, "/tmp and the temp dir coincide: %v", roots)

	t.Setenv("TMPDIR", "/")
	assert.Equal(t, "/", sandbox.TempDir(), "the root keeps its separator")
}

// A policy without a workspace root grants only the temp areas; a relative root is made absolute.
func TestWritableRootsWorkspaceRootSpelling(t *testing.T) {
	roots := sandbox.WritableRoots(fs.SandboxPolicy{Mode: fs.SandboxWorkspaceWrite})
	for _, r := range roots {
		assert.True(t, filepath.IsAbs(r), r)
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.NotContains(t, roots, sandbox.CanonicalPath(wd), "no root means no workspace")

	roots = sandbox.WritableRoots(fs.SandboxPolicy{Mode: fs.SandboxWorkspaceWrite, WorkspaceRoot: "rel/missing-xyz"})
	assert.Equal(t, filepath.Join(wd, "rel/missing-xyz"), roots[0])
}
