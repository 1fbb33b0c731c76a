package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

func TestResolveDisplayPathIsLexical(t *testing.T) {
	p, dir := newProvider(t)
	other := t.TempDir()
	cases := []struct {
		name, path, cwd, display string
	}{
		{"relative to config cwd", "a.txt", "", dir + "/a.txt"},
		{"dot segments collapse", "./x/../a.txt", "", dir + "/a.txt"},
		{"duplicate and trailing separators", "x//y/", "", dir + "/x/y"},
		{"absolute ignores cwd", "/etc/../etc/hosts", other, "/etc/hosts"},
		{"opts cwd wins", "b.txt", other, other + "/b.txt"},
		{"no tilde expansion", "~/notes.txt", "", dir + "/~/notes.txt"},
		{"parent escapes cwd", "../z.txt", "", filepath.Dir(dir) + "/z.txt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tg, err := p.Resolve(context.Background(), c.path, fs.ResolveOptions{Cwd: c.cwd})
			require.NoError(t, err)
			assert.Equal(t, c.display, tg.DisplayPath)
		})
	}
}

func TestResolveBlankPath(t *testing.T) {
	p, _ := newProvider(t)
	for _, path := range []string{"", " ", "\t\n", "\uFEFF "} {
		_, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
		requireFsError(t, err, fs.CodeNotFound, "file_path must be a non-empty string")
	}
}

func TestResolveKeyIdentity(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/real/file.txt", "x")
	require.NoError(t, os.Symlink(dir+"/real", dir+"/linkdir"))
	require.NoError(t, os.Symlink("real/file.txt", dir+"/linkfile"))

	want := fs.TargetKey(dir + "/real/file.txt")
	for _, path := range []string{"real/file.txt", "linkdir/file.txt", "linkfile", "real/../real/./file.txt", dir + "/linkdir/../real/file.txt"} {
		assert.Equal(t, want, resolve(t, p, path).Key, path)
	}
	// displayPath stays lexical: "linkdir/.." collapses textually, not physically.
	assert.Equal(t, dir+"/linkfile", resolve(t, p, "linkfile").DisplayPath)
}

func TestResolveMissingWalksToNearestAncestor(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Mkdir(dir+"/ws", 0o755))
	require.NoError(t, os.Symlink(dir+"/ws", dir+"/wslink"))

	before := resolve(t, p, "wslink/new/deeper/file.txt")
	assert.Equal(t, fs.TargetKey(dir+"/ws/new/deeper/file.txt"), before.Key)
	assert.Equal(t, dir+"/wslink/new/deeper/file.txt", before.DisplayPath)

	writeFile(t, dir+"/ws/new/deeper/file.txt", "now exists")
	after := resolve(t, p, "wslink/new/deeper/file.txt")
	assert.Equal(t, before.Key, after.Key, "the key is stable across creation")
}

func TestResolveDanglingSymlinkKeyIsTheLink(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Symlink(dir+"/nowhere", dir+"/dangling"))
	tg := resolve(t, p, "dangling")
	assert.Equal(t, fs.TargetKey(dir+"/dangling"), tg.Key)
	info, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	assert.Nil(t, info, "stat follows the link: absent")
}

func TestResolveThroughRegularFile(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/afile", "x")
	_, err := p.Resolve(context.Background(), "afile/child.txt", fs.ResolveOptions{})
	requireFsError(t, err, fs.CodeNotFound, `cannot resolve "`+dir+`/afile/child.txt": a parent path segment is not a directory`)
	assert.ErrorIs(t, err, unix.ENOTDIR, "the OS error is the cause")
}

// A symlink loop fails Resolve FS_IO_ERROR with the display path and what to
// do, the ELOOP as the cause (the reference throws it raw, with no code).
func TestResolveSymlinkLoopIsCoded(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Symlink(dir+"/loop-b", dir+"/loop-a"))
	require.NoError(t, os.Symlink(dir+"/loop-a", dir+"/loop-b"))
	for _, path := range []string{"loop-a", "loop-a/missing/x.txt"} {
		_, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
		requireFsError(t, err, fs.CodeIOError, `cannot resolve "`+dir+"/"+path+`": too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop`)
		assert.ErrorIs(t, err, unix.ELOOP)
	}
}

func TestResolveAborted(t *testing.T) {
	p, _ := newProvider(t)
	_, err := p.Resolve(cancelled(), "a.txt", fs.ResolveOptions{})
	requireFsError(t, err, fs.CodeAborted, "resolve aborted")
	assert.ErrorIs(t, err, context.Canceled)
}

func TestProcessPathFileURLContains(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/ws/sub/f.txt", "x")
	require.NoError(t, os.Symlink(dir+"/ws", dir+"/alias"))
	ws := resolve(t, p, "ws")
	f := resolve(t, p, "alias/sub/f.txt")

	assert.Equal(t, dir+"/ws/sub/f.txt", p.ProcessPath(f))
	assert.True(t, p.Contains(ws, ws), "a directory contains itself")
	assert.True(t, p.Contains(ws, f), "descendant through a symlinked spelling")
	assert.False(t, p.Contains(f, ws))
	assert.False(t, p.Contains(ws, resolve(t, p, "wsx")), "sibling with a common prefix")
	assert.False(t, p.Contains(ws, resolve(t, p, "..")))
	assert.True(t, p.Contains(ws, resolve(t, p, "ws/..dots")), `a child named "..dots" is inside`)

	u := p.FileURL(fs.Target{Key: `/a b/c#d?e%f/ü"<>\^` + "`{}|[]!$&'()*+,;=@:~"})
	assert.Equal(t, "file:///a%20b/c%23d%3Fe%25f/%C3%BC%22%3C%3E%5C%5E%60%7B%7D|[]!$&'()*+,;=@:~", u)
	assert.Equal(t, "file://"+dir+"/ws", p.FileURL(ws))
}

func TestSandboxModeNeverConfines(t *testing.T) {
	p, _ := newProvider(t)
	_, confines := sandbox.ConfiningMode(p)
	assert.False(t, confines)
	assert.NotImplements(t, (*sandbox.Confiner)(nil), p)
}

func TestConfigValidation(t *testing.T) {
	msg := "fs-local: diffBasisMaxBytes must be a positive safe integer no greater than 9007199254740991"
	for _, v := range []int64{0, -1, hostfs.MaxDiffBasisBytes + 1, 1 << 62} {
		err := hostfs.Config{DiffBasisMaxBytes: v}.Validate()
		require.EqualError(t, err, msg, "value %d", v)
	}
	require.NoError(t, hostfs.Config{DiffBasisMaxBytes: hostfs.MaxDiffBasisBytes}.Validate())

	var c hostfs.Config
	c.Defaults()
	assert.Equal(t, int64(10485760), c.DiffBasisMaxBytes)
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, wd, c.Cwd, "cwd defaults to the process working directory")

	_, err = hostfs.New(hostfs.Config{DiffBasisMaxBytes: -5}, nil)
	require.EqualError(t, err, msg)

	p, err := hostfs.New(hostfs.Config{Cwd: "../hostfs"}, nil)
	require.NoError(t, err)
	assert.Equal(t, wd, p.Cwd(), "a relative cwd is made absolute")

	// A cwd that does not exist, or is not a directory, fails the start naming it (every call
	// would otherwise fail "not found").
	_, err = hostfs.New(hostfs.Config{Cwd: "rel"}, nil)
	require.EqualError(t, err, "fs-local: cwd "+filepath.Join(wd, "rel")+" does not exist")
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = hostfs.New(hostfs.Config{Cwd: file}, nil)
	require.EqualError(t, err, "fs-local: cwd "+file+" is not a directory")
}
