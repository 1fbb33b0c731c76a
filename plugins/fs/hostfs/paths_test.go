package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// A NUL byte anywhere in the path (or in the base a relative path joins) is
// refused before the lexical join: a later ".." would otherwise swallow the
// component that holds it ("a.txt\x00../../elsewhere/x.txt" named
// elsewhere/x.txt).
func TestNULSwallowedByDotDotIsRefused(t *testing.T) {
	p, dir := newProvider(t)
	ctx := context.Background()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ws", "sub"), 0o755))
	writeFile(t, filepath.Join(dir, "elsewhere", "x.txt"), "keep")
	cwd := fs.ResolveOptions{Cwd: filepath.Join(dir, "ws", "sub")}
	for _, path := range []string{
		"a.txt\x00../../elsewhere/x.txt", "\x00/../../elsewhere/x.txt", "x\x00/..", dir + "/d\x00/../elsewhere/x.txt",
	} {
		want := `cannot resolve "` + strings.ReplaceAll(path, "\x00", `\x00`) + `": the path contains a NUL byte, which no file name can hold — remove it, then retry`
		_, err := p.Resolve(ctx, path, cwd)
		require.ErrorIs(t, err, unix.EINVAL, "%q", path)
		requireFsError(t, err, fs.CodeNotFound, want)
		_, err = p.Lstat(ctx, path, fs.LstatOptions(cwd))
		require.ErrorIs(t, err, unix.EINVAL, "%q", path)
		requireFsError(t, err, fs.CodeNotFound, want)
	}
	_, err := p.Resolve(ctx, "../../elsewhere/x.txt", fs.ResolveOptions{Cwd: dir + "/ws/s\x00/../sub"})
	require.ErrorIs(t, err, unix.EINVAL, "a NUL in the base")
	requireFsError(t, err, fs.CodeNotFound, `cannot resolve "`+dir+`/ws/s\x00/../sub/../../elsewhere/x.txt": the path contains a NUL byte, which no file name can hold — remove it, then retry`)
	_, err = p.Lstat(ctx, "x", fs.LstatOptions{Cwd: dir + "/s\x00/.."})
	require.ErrorIs(t, err, unix.EINVAL, "a NUL in the base")
	assert.Equal(t, "keep", readDisk(t, filepath.Join(dir, "elsewhere", "x.txt")))
}

// A path that ends in "/" (or in a "." or ".." segment) names a directory,
// as in POSIX: on an existing non-directory Resolve fails FS_NOT_DIRECTORY
// (like stat(2)'s ENOTDIR) and Lstat reports it absent; a directory or a
// missing entry resolves to the same target as the bare spelling.
func TestPathNamingADirectory(t *testing.T) {
	p, dir := newProvider(t)
	ctx := context.Background()
	writeFile(t, filepath.Join(dir, "f.txt"), "text")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	require.NoError(t, os.Symlink("f.txt", filepath.Join(dir, "lf")))
	require.NoError(t, os.Symlink("d", filepath.Join(dir, "ld")))
	require.NoError(t, unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	require.NoError(t, os.Symlink("lf", filepath.Join(dir, "llf")))
	require.NoError(t, os.Symlink("ld", filepath.Join(dir, "lld")))
	require.NoError(t, os.Symlink("d/..", filepath.Join(dir, "ldu")))
	require.NoError(t, os.Symlink("..", filepath.Join(dir, "lup")))

	for _, path := range []string{"f.txt/", "f.txt/.", "f.txt//", "f.txt/./", "lf/", "llf/", "fifo/", "f.txt/x/.."} {
		_, err := p.Resolve(ctx, path, fs.ResolveOptions{})
		requireFsError(t, err, fs.CodeNotDirectory, `cannot resolve "`+filepath.Join(dir, path)+`": not a directory, but the path ends in "/" or in a "." or ".." segment`)
		require.ErrorIs(t, err, unix.ENOTDIR)
		info, err := p.Lstat(ctx, path, fs.LstatOptions{})
		require.NoError(t, err, path)
		assert.Nil(t, info, "%q: lstat(2) fails ENOTDIR: absent", path)
	}
	for _, path := range []string{"d/", "d/.", "ld/", "lld/", "ldu/", "lup/", "missing/", "missing/.", "d/missing/", "./", "/"} {
		tg, err := p.Resolve(ctx, path, fs.ResolveOptions{})
		require.NoError(t, err, path)
		assert.Equal(t, resolve(t, p, filepath.Clean(path)), tg, "%q resolves like its bare spelling", path)
	}
	info, err := p.Lstat(ctx, "ld/", fs.LstatOptions{})
	require.NoError(t, err)
	assert.Equal(t, fs.TypeDirectory, info.Type, "a trailing slash follows the final symlink, as in lstat(2)")
	info, err = p.Lstat(ctx, "ld", fs.LstatOptions{})
	require.NoError(t, err)
	assert.Equal(t, fs.TypeSymlink, info.Type)
	assert.Equal(t, "text", readDisk(t, filepath.Join(dir, "f.txt")))
}
