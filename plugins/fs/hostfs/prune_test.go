package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// The PublishBefore of a creation names the directories it makes for the file, innermost first
// (a write's missing parents; a set's, for each new file, every parent the set made, so two new
// files in one new folder both name it); an update, a delete or a file in an existing folder names
// none (docs/history.md "The seam").
func TestPublishHookNamesTheDirsACreationMakes(t *testing.T) {
	p, dir := newProvider(t)
	var r reported
	p.SetPublishHook(hook(&r, true))
	ctx := context.Background()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "kept"), 0o755))

	_, err := p.WriteText(ctx, resolve(t, p, filepath.Join(dir, "kept/a/b/new.txt")), "x\n", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "kept/a/b"), filepath.Join(dir, "kept/a")}, r.args[0].MadeDirs)
	assert.Nil(t, r.args[1].MadeDirs, "PublishDone carries none")
	_, err = p.WriteText(ctx, resolve(t, p, filepath.Join(dir, "kept/a/b/new.txt")), "y\n", nil)
	require.NoError(t, err)
	assert.Nil(t, r.args[2].MadeDirs, "a replaced file made no folder")

	r = reported{}
	writeFile(t, filepath.Join(dir, "u.txt"), "u\n")
	_, err = p.ApplyChanges(ctx, []fs.Change{
		{Kind: fs.ChangeWrite, Target: resolve(t, p, filepath.Join(dir, "n/m/one.txt")), Content: "1\n"},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, filepath.Join(dir, "n/m/two.txt")), Content: "2\n"},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, filepath.Join(dir, "kept/three.txt")), Content: "3\n"},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, filepath.Join(dir, "u.txt")), Update: upper},
	})
	require.NoError(t, err)
	made := map[string][]string{}
	for _, a := range r.args {
		if a.Phase == fs.PublishBefore {
			made[filepath.Base(string(a.Target.Key))] = a.MadeDirs
		}
	}
	want := []string{filepath.Join(dir, "n/m"), filepath.Join(dir, "n")}
	assert.Equal(t, map[string][]string{"one.txt": want, "two.txt": want, "three.txt": nil, "u.txt": nil}, made)
}

// PruneDirs removes, innermost first, the empty folders it is given that are the file's
// ancestors, and stops at the first that stays: one that holds something, one reached through a
// symlink, one that is not the next ancestor, one that is not a directory; beneath a root it never
// removes the root or anything outside it.
func TestPruneDirsRemovesOnlyEmptyAncestorsReachedDirectly(t *testing.T) {
	p, dir := newProvider(t)
	ctx := context.Background()
	j := func(s string) string { return filepath.Join(dir, s) }
	tg := func(s string) fs.Target { return fs.Target{Key: fs.TargetKey(j(s)), DisplayPath: s} }

	require.NoError(t, os.MkdirAll(j("a/b/c"), 0o755))
	writeFile(t, j("a/keep.txt"), "k\n")
	assert.Equal(t, []string{j("a/b/c"), j("a/b")}, p.PruneDirs(ctx, tg("a/b/c/f.txt"), []string{j("a/b/c"), j("a/b"), j("a")}))
	assert.DirExists(t, j("a"), "a folder that holds a file stays")

	require.NoError(t, os.MkdirAll(j("x/y"), 0o755))
	assert.Empty(t, p.PruneDirs(ctx, tg("x/y/f.txt"), []string{j("x")}), "not the file's parent: nothing")
	assert.Empty(t, p.PruneDirs(ctx, tg("x/y/f.txt"), []string{j("other")}))
	assert.DirExists(t, j("x/y"))

	// A folder reached through a symlink planted since: the empty folder it leads to stays.
	require.NoError(t, os.MkdirAll(j("elsewhere/empty"), 0o755))
	require.NoError(t, os.Symlink(j("elsewhere"), j("link")))
	assert.Empty(t, p.PruneDirs(ctx, tg("link/empty/f.txt"), []string{j("link/empty"), j("link")}))
	assert.DirExists(t, j("elsewhere/empty"))
	assert.FileExists(t, j("link"))

	// A file where the folder was: rmdir never removes it.
	writeFile(t, j("p/q"), "not a dir\n")
	assert.Empty(t, p.PruneDirs(ctx, tg("p/q/f.txt"), []string{j("p/q"), j("p")}))
	assert.FileExists(t, j("p/q"))

	// Beneath a root: the root stays, and so does what lies outside it.
	require.NoError(t, os.MkdirAll(j("ws/r/s"), 0o755))
	b := hostfs.Beneath{Root: j("ws/r")}
	assert.Equal(t, []string{j("ws/r/s")}, p.PruneDirsBeneath(ctx, tg("ws/r/s/f.txt"), []string{j("ws/r/s"), j("ws/r"), j("ws")}, b))
	assert.DirExists(t, j("ws/r"))
	require.NoError(t, os.MkdirAll(j("out/t"), 0o755))
	assert.Empty(t, p.PruneDirsBeneath(ctx, tg("out/t/f.txt"), []string{j("out/t"), j("out")}, b))
	assert.DirExists(t, j("out/t"))
}
