package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// CanonicalPath resolves symlinks (an existing path realpaths).
func TestCanonicalPathOfATempDir(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, real, sandbox.CanonicalPath(dir))
}

// Returns the spelling as-is when the path cannot be resolved.
func TestCanonicalPathUnresolvable(t *testing.T) {
	assert.Equal(t, "/does/not/exist/anywhere-xyz", sandbox.CanonicalPath("/does/not/exist/anywhere-xyz"))
}

// Read-only grants nothing; danger-full-access and unknown modes have
// no list either (only workspace-write confines to roots).
func TestWritableRootsOtherModes(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	for _, m := range []sandbox.Mode{sandbox.ReadOnly, sandbox.DangerFullAccess, "", "yolo"} {
		roots, ignored := sandbox.WritableRoots(sandbox.CallPolicy{Mode: m, WorkspaceRoot: wd})
		assert.Empty(t, roots, m)
		assert.Empty(t, ignored, m)
	}
}

// Workspace-write grants the workspace root plus the platform temp
// areas, canonical and deduplicated.
func TestWritableRootsWorkspaceWrite(t *testing.T) {
	ws := t.TempDir()
	roots, _ := sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws})
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

// The temp area is read from the environment at every call: $TMPDIR (the documented variable)
// with a trailing separator stripped, else /tmp; $TMP and $TEMP are not consulted. /tmp and the
// temp dir collapse into one root when they coincide.
func TestWritableRootsFollowTheEnvironment(t *testing.T) {
	ws := t.TempDir()
	alt, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	policy := sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws}

	t.Setenv("TMPDIR", alt+"/")
	t.Setenv("TMP", "/nowhere-tmp")
	t.Setenv("TEMP", "/nowhere-temp")
	assert.Equal(t, alt, sandbox.TempDir())
	roots, _ := sandbox.WritableRoots(policy)
	assert.Contains(t, roots, alt)

	t.Setenv("TMPDIR", "")
	assert.Equal(t, "/tmp", sandbox.TempDir(), "$TMP and $TEMP are not temp roots")
	roots, ignored := sandbox.WritableRoots(policy)
	assert.Len(t, roots, 2, "/tmp and the temp dir coincide: %v", roots)
	assert.NotContains(t, roots, "/nowhere-tmp")
	assert.NotContains(t, roots, "/nowhere-temp")
	assert.Empty(t, ignored)

	t.Setenv("TMPDIR", "/nowhere-tmpdir")
	roots, _ = sandbox.WritableRoots(policy)
	assert.Contains(t, roots, "/nowhere-tmpdir", "a missing temp dir keeps its spelling")

	t.Setenv("TMPDIR", "/")
	assert.Equal(t, "/", sandbox.TempDir(), "the root keeps its separator")
}

// A temp root that is the file system root, the user's home or an ancestor of the home (after
// canonicalization: "..", symlinks) is ignored and reported; the workspace root is never judged,
// and a temp dir inside the home is an ordinary root. /tmp is judged like $TMPDIR (a home under
// /tmp makes /tmp unsafe).
func TestUnsafeTempRootsAreIgnored(t *testing.T) {
	base := sandboxtest.OutsideDir(t) // not under /tmp, which would be an ancestor of the home
	home := filepath.Join(base, "home", "u")
	require.NoError(t, os.MkdirAll(filepath.Join(home, "tmp"), 0o755))
	require.NoError(t, os.Symlink("/", filepath.Join(base, "slash")))
	t.Setenv("HOME", home)
	ws := filepath.Join(base, "ws")
	policy := sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws}
	tmp := sandbox.CanonicalPath("/tmp")
	for _, c := range []struct {
		tmpdir, path, reason string
	}{
		{"/", "/", "it is the file system root"},
		{filepath.Join(base, "slash"), "/", "it is the file system root"},
		{home + "/../..", filepath.Join(base), "it is an ancestor of the home directory"},
		{home, home, "it is the home directory"},
		{home + "/", home, "it is the home directory"},
		{filepath.Join(base, "home"), filepath.Join(base, "home"), "it is an ancestor of the home directory"},
	} {
		t.Setenv("TMPDIR", c.tmpdir)
		roots, ignored := sandbox.WritableRoots(policy)
		assert.NotContains(t, roots, c.path, c.tmpdir)
		assert.Contains(t, ignored, sandbox.IgnoredRoot{Source: "$TMPDIR", Path: c.path, Reason: c.reason}, c.tmpdir)
	}
	t.Setenv("TMPDIR", filepath.Join(home, "tmp"))
	roots, ignored := sandbox.WritableRoots(policy)
	assert.Equal(t, []string{ws, tmp, filepath.Join(home, "tmp")}, roots)
	assert.Empty(t, ignored)

	t.Setenv("TMPDIR", "")
	t.Setenv("HOME", "/")
	roots, ignored = sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/"})
	assert.Equal(t, []string{"/", tmp}, roots, "a workspace root of / is the user's choice, never judged")
	assert.Empty(t, ignored)

	t.Setenv("HOME", filepath.Join(tmp, "home-under-tmp"))
	roots, ignored = sandbox.WritableRoots(policy)
	assert.Equal(t, []string{ws}, roots)
	assert.Equal(t, []sandbox.IgnoredRoot{{Source: "/tmp", Path: tmp, Reason: "it is an ancestor of the home directory"}}, ignored,
		"/tmp and the temp dir coincide: one report")

	// Without a home only / is judged.
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", "/")
	roots, ignored = sandbox.WritableRoots(policy)
	assert.Equal(t, []string{ws, tmp}, roots)
	assert.Equal(t, []sandbox.IgnoredRoot{{Source: "$TMPDIR", Path: "/", Reason: "it is the file system root"}}, ignored)
}

// A policy without a workspace root grants only the temp areas; a relative root is made absolute.
func TestWritableRootsWorkspaceRootSpelling(t *testing.T) {
	roots, _ := sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite})
	for _, r := range roots {
		assert.True(t, filepath.IsAbs(r), r)
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.NotContains(t, roots, sandbox.CanonicalPath(wd), "no root means no workspace")

	roots, _ = sandbox.WritableRoots(sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "rel/missing-xyz"})
	assert.Equal(t, filepath.Join(wd, "rel/missing-xyz"), roots[0])
}
