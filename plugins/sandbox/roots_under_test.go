package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
)

func realTemp(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return dir
}

func under(t *testing.T, path, root string) bool {
	t.Helper()
	ok, err := sandbox.IsPathUnder(path, root)
	require.NoError(t, err)
	return ok
}

// Accepts equal paths, descendants, and a filesystem-root
// boundary.
func TestIsPathUnderEqualDescendantAndFilesystemRoot(t *testing.T) {
	base := realTemp(t)
	assert.True(t, under(t, base, base))
	assert.True(t, under(t, filepath.Join(base, "child"), base))
	assert.True(t, under(t, base, "/"))
}

// Uses case-insensitive lexical comparison for Windows-style
// containment.
func TestIsPathUnderCaseInsensitive(t *testing.T) {
	base := realTemp(t)
	anchor, ok, err := sandbox.UnderRoot(filepath.Join(strings.ToUpper(base), "child"), strings.ToLower(base), false)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, strings.ToUpper(base), anchor, "the anchor is spelled as the path spells it")
	_, ok, err = sandbox.UnderRoot(filepath.Join(base, "case-sensitive-child"), base, true)
	require.NoError(t, err)
	assert.True(t, ok)
	// Case-sensitive (the Linux and macOS default): a differently cased spelling of a missing
	// directory is not the root.
	assert.False(t, under(t, filepath.Join(base, "WS", "x"), filepath.Join(base, "ws")))
}

// Recognizes an alias-equivalent root by filesystem identity for
// a missing target.
func TestIsPathUnderAliasRootByIdentity(t *testing.T) {
	base := realTemp(t)
	realRoot := filepath.Join(base, "real")
	aliasRoot := filepath.Join(base, "alias")
	require.NoError(t, os.Mkdir(realRoot, 0o755))
	require.NoError(t, os.Symlink(realRoot, aliasRoot))
	anchor, ok, err := sandbox.UnderRoot(filepath.Join(realRoot, "missing", "file.txt"), aliasRoot, true)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, realRoot, anchor, "the ancestor that is the root")
}

// Denies unrelated and missing roots.
func TestIsPathUnderUnrelatedAndMissingRoots(t *testing.T) {
	base := realTemp(t)
	allowed := filepath.Join(base, "allowed")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.Mkdir(allowed, 0o755))
	require.NoError(t, os.Mkdir(outside, 0o755))
	assert.False(t, under(t, filepath.Join(outside, "file.txt"), allowed))
	assert.False(t, under(t, filepath.Join(outside, "file.txt"), filepath.Join(base, "missing-root")))
}

// Treats a regular-file path segment as a missing target, not
// containment.
func TestIsPathUnderRegularFileSegment(t *testing.T) {
	base := realTemp(t)
	allowed := filepath.Join(base, "allowed")
	blocker := filepath.Join(base, "blocker")
	require.NoError(t, os.Mkdir(allowed, 0o755))
	require.NoError(t, os.WriteFile(blocker, []byte("not a directory"), 0o644))
	assert.False(t, under(t, filepath.Join(blocker, "child.txt"), allowed))
}

// Prefix checks need a separator boundary: /ws2 is not beneath /ws (docs/sandbox.md "Modes and
// the policy").
func TestIsPathUnderSiblingPrefix(t *testing.T) {
	base := realTemp(t)
	ws, ws2 := filepath.Join(base, "ws"), filepath.Join(base, "ws2")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(ws2, 0o755))
	assert.False(t, under(t, filepath.Join(ws2, "x"), ws))
	assert.False(t, under(t, ws2, ws))
	assert.False(t, under(t, filepath.Join(base, "ws2-missing", "x"), ws))
	assert.True(t, under(t, filepath.Join(ws, "x"), ws))
	assert.True(t, under(t, filepath.Join(ws, "x"), ws+"/"), "a root spelled with a trailing separator")
	assert.False(t, under(t, base, ws), "the parent is not under the child")
}

// Keys are absolute and clean; anything else is not contained, even when the text has the
// root's prefix.
func TestIsPathUnderRefusesUncleanInput(t *testing.T) {
	base := realTemp(t)
	ws := filepath.Join(base, "ws")
	require.NoError(t, os.Mkdir(ws, 0o755))
	for _, p := range []string{ws + "/../etc", ws + "/./x", ws + "//x", ws + "/x/", "ws/x", ""} {
		assert.False(t, under(t, p, ws), p)
	}
	assert.False(t, under(t, filepath.Join(ws, "x"), "ws"), "a relative root contains nothing")
}

// A symlinked directory inside the root that points out is not the root: the identity walk
// only accepts an ancestor that is the root itself. (Keys are canonical, so a key never spells
// such a link; this pins the fallback's direction.)
func TestIsPathUnderIdentityNeedsTheRootItself(t *testing.T) {
	base := realTemp(t)
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(out, 0o755))
	require.NoError(t, os.Symlink(ws, filepath.Join(out, "link-in")))
	// out/link-in is an alias of ws: a path under it is under ws by identity.
	assert.True(t, under(t, filepath.Join(out, "link-in", "f"), ws))
	assert.False(t, under(t, filepath.Join(out, "f"), ws))
}

// Stat errors other than "missing" propagate instead of being read as "inside" or "outside".
func TestIsPathUnderPropagatesStatErrors(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	base := realTemp(t)
	ws := filepath.Join(base, "ws")
	locked := filepath.Join(base, "locked")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(locked, "inner"), 0o755))
	require.NoError(t, os.Chmod(locked, 0o000))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	_, err := sandbox.IsPathUnder(filepath.Join(locked, "inner", "f"), ws)
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrPermission)
}

// A stat failure that is not "missing" (here ENAMETOOLONG, which root cannot bypass) propagates
// from the identity walk.
func TestIsPathUnderPropagatesNonMissingErrors(t *testing.T) {
	base := realTemp(t)
	ws := filepath.Join(base, "ws")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(base, "out"), 0o755))
	long := filepath.Join(base, "out", strings.Repeat("a", 300), "f")
	ok, err := sandbox.IsPathUnder(long, ws)
	require.Error(t, err)
	assert.False(t, ok)
	assert.ErrorIs(t, err, syscall.ENAMETOOLONG)
}
