package hostfs_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

func names(entries []fs.DirEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	return out
}

func TestListDirReferenceExample(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/skills/zeta.md", "zeta!")
	writeFile(t, dir+"/skills/alpha.md", "alpha")
	require.NoError(t, os.Mkdir(dir+"/skills/dir-skill", 0o755))
	require.NoError(t, os.Symlink(dir+"/skills/nowhere", dir+"/skills/broken-link"))

	entries, err := p.ListDir(context.Background(), resolve(t, p, "skills"))
	require.NoError(t, err)
	require.Equal(t, []string{"alpha.md", "broken-link", "dir-skill", "zeta.md"}, names(entries))

	alpha := entries[0]
	assert.Equal(t, fs.TypeFile, alpha.Type)
	assert.True(t, alpha.HasSize)
	assert.Equal(t, int64(5), alpha.Size)
	assert.Regexp(t, versionPattern, string(alpha.Version))
	assert.Equal(t, fs.Target{Key: fs.TargetKey(dir + "/skills/alpha.md"), DisplayPath: dir + "/skills/alpha.md"}, alpha.Target)

	broken := entries[1]
	assert.Equal(t, fs.TypeOther, broken.Type)
	assert.Empty(t, broken.Version, "no version for a broken link")
	assert.False(t, broken.HasSize)

	sub := entries[2]
	assert.Equal(t, fs.TypeDirectory, sub.Type)
	assert.NotEmpty(t, sub.Version)
	assert.False(t, sub.HasSize, "size only for regular files")
}

func TestListDirChildrenResolveAgainstParentKey(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/a/f.txt", "a")
	writeFile(t, dir+"/b/f.txt", "b")
	require.NoError(t, os.Symlink(dir+"/a", dir+"/cur"))
	tg := resolve(t, p, "cur")

	// Re-point the spelled link after resolution: the listing keeps the identity of "a".
	require.NoError(t, os.Remove(dir+"/cur"))
	require.NoError(t, os.Symlink(dir+"/b", dir+"/cur"))
	entries, err := p.ListDir(context.Background(), tg)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, dir+"/cur/f.txt", entries[0].Target.DisplayPath)
	assert.Equal(t, fs.TargetKey(dir+"/a/f.txt"), entries[0].Target.Key)
}

func TestListDirErrors(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/f", "x")
	require.NoError(t, os.Mkdir(dir+"/loops", 0o755))
	require.NoError(t, os.Symlink(dir+"/loops/b", dir+"/loops/a"))
	require.NoError(t, os.Symlink(dir+"/loops/a", dir+"/loops/b"))

	_, err := p.ListDir(context.Background(), resolve(t, p, "missing"))
	requireFsError(t, err, fs.CodeNotFound, `cannot list "`+dir+`/missing": not found`)
	_, err = p.ListDir(context.Background(), resolve(t, p, "f"))
	requireFsError(t, err, fs.CodeNotDirectory, `cannot list "`+dir+`/f": not a directory`)

	_, err = p.ListDir(context.Background(), resolve(t, p, "loops"))
	require.Error(t, err)
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fs.CodeIOError, fe.Kind)
	assert.Contains(t, fe.Message, `cannot list "`+dir+`/loops/a": `, "child failures name the child")
	assert.Contains(t, fe.Message, "too many levels of symbolic links")
	assert.NotNil(t, fe.Cause)

	_, err = p.ListDir(cancelled(), resolve(t, p, "loops"))
	requireFsError(t, err, fs.CodeAborted, "list aborted")
}

func TestListDirPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses directory permissions")
	}
	p, dir := newProvider(t)
	require.NoError(t, os.Mkdir(dir+"/locked", 0o000))
	t.Cleanup(func() { _ = os.Chmod(dir+"/locked", 0o755) })
	_, err := p.ListDir(context.Background(), resolve(t, p, "locked"))
	requireFsError(t, err, fs.CodePermissionDenied, `cannot list "`+dir+`/locked": permission denied`)
}

func TestListDirCollation(t *testing.T) {
	p, dir := newProvider(t)
	in := []string{"b", "B", "a", "A", "10", "9", "_x", "-y", "Beta", "alpha", "ab", "Aa", "a.txt", "a-b", "é", "f", "~t"}
	for _, n := range in {
		writeFile(t, dir+"/c/"+n, "")
	}
	entries, err := p.ListDir(context.Background(), resolve(t, p, "c"))
	require.NoError(t, err)
	// Pinned collation (see compareNames): punctuation < digits < letters,
	// case-insensitive first, lower case before upper case on ties.
	want := []string{"_x", "-y", "~t", "10", "9", "a", "A", "a-b", "a.txt", "Aa", "ab", "alpha", "b", "B", "Beta", "é", "f"}
	assert.Equal(t, want, names(entries))
}
