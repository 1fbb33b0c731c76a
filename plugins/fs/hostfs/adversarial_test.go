package hostfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// A path with a NUL byte is refused by Resolve and Lstat (no system call
// accepts it), even when the NUL sits in a missing suffix the ancestor walk
// would otherwise have re-appended to the key: FS_NOT_FOUND naming the path as
// sent, each NUL shown as \x00, with EINVAL as the cause (docs/fs.md).
func TestNULInPathIsRefused(t *testing.T) {
	p, _ := newProvider(t)
	for path, shown := range map[string]string{"a\x00b": `a\x00b`, "missing/\x00": `missing/\x00`, "\x00": `\x00`, "/abs/x\x00": `/abs/x\x00`} {
		want := `cannot resolve "` + shown + `": the path contains a NUL byte, which no file name can hold — remove it, then retry`
		_, err := p.Resolve(context.Background(), path, fs.ResolveOptions{})
		requireFsError(t, err, fs.CodeNotFound, want)
		require.ErrorIs(t, err, unix.EINVAL, "%q", path)
		_, err = p.Lstat(context.Background(), path, fs.LstatOptions{})
		requireFsError(t, err, fs.CodeNotFound, want)
		require.ErrorIs(t, err, unix.EINVAL, "%q", path)
	}
}

// Any name the file system accepts is writable: the staging names keep only
// a prefix of a long target name, so they fit NAME_MAX (255 bytes) too. A
// name past NAME_MAX fails Resolve FS_IO_ERROR (ENAMETOOLONG the cause).
func TestLongNamesAreWritable(t *testing.T) {
	names := map[string]string{
		"199 bytes":           strings.Repeat("a", 199),
		"230 bytes":           strings.Repeat("b", 230),
		"255 bytes":           strings.Repeat("c", 255),
		"254 bytes multibyte": strings.Repeat("é", 127),
		"255 bytes mixed":     "x" + strings.Repeat("世", 84) + "z",
	}
	for label, name := range names {
		t.Run(label, func(t *testing.T) {
			p, dir := newProvider(t)
			ctx := context.Background()
			tg := resolve(t, p, name)
			out, err := p.WriteText(ctx, tg, "one", fs.CreateIfAbsent())
			require.NoError(t, err)
			assert.Equal(t, fs.OperationCreate, out.Operation)
			_, err = p.WriteText(ctx, tg, "two", fs.CreateIfAbsent())
			requireFsError(t, err, fs.CodeNotObserved, `cannot overwrite existing "`+tg.DisplayPath+`" without reading it first`)
			_, err = p.WriteText(ctx, tg, "three", fs.ReplaceIfVersion(out.Version))
			require.NoError(t, err)
			_, err = p.EditText(ctx, tg, edit("three", "four"), nil)
			require.NoError(t, err)
			assert.Equal(t, "four", readDisk(t, filepath.Join(dir, name)))
			requireClean(t, p, dir)
		})
	}
	p, _ := newProvider(t)
	_, err := p.Resolve(context.Background(), strings.Repeat("d", 256), fs.ResolveOptions{})
	require.ErrorIs(t, err, unix.ENAMETOOLONG)
	requireFsError(t, err, fs.CodeIOError, `cannot resolve "`+p.Cwd()+"/"+strings.Repeat("d", 256)+`": file name too long — use a shorter name`)
}

// A path longer than PATH_MAX fails every primitive FS_IO_ERROR with the
// display path (ENAMETOOLONG the cause) and leaves nothing behind.
func TestPathTooLong(t *testing.T) {
	p, dir := newProvider(t)
	tg := resolve(t, p, strings.Repeat("dddddddddd/", 420)+"f")
	ctx := context.Background()
	tooLong := func(verb string, err error) {
		t.Helper()
		require.ErrorIs(t, err, unix.ENAMETOOLONG)
		requireFsError(t, err, fs.CodeIOError, "cannot "+verb+` "`+tg.DisplayPath+`": file name too long — use a shorter name`)
	}
	_, err := p.WriteText(ctx, tg, "x", nil)
	tooLong("write", err)
	_, err = p.WriteText(ctx, tg, "x", fs.CreateIfAbsent())
	tooLong("write", err)
	_, err = p.EditText(ctx, tg, edit("x", "y"), nil)
	tooLong("edit", err)
	_, err = p.ReadText(ctx, tg)
	tooLong("read", err)
	_, err = p.Stat(ctx, tg)
	tooLong("access", err)
	requireClean(t, p, dir)
	assert.NoDirExists(t, filepath.Join(dir, "dddddddddd"), "no parent directories were created")
}

// A symlink loop as the target (reachable with a key resolved before the
// loop appeared) fails every primitive FS_IO_ERROR, ELOOP the cause, naming
// the display path and what to do (ListDir with its own "cannot list", as the
// reference's "translates preflight metadata IO failures into FS_IO_ERROR").
// Nothing is left behind.
func TestSymlinkLoopTargets(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Symlink("self", filepath.Join(dir, "self")))
	require.NoError(t, os.Symlink("lb", filepath.Join(dir, "la")))
	require.NoError(t, os.Symlink("la", filepath.Join(dir, "lb")))
	ctx := context.Background()
	for _, name := range []string{"self", "la", "self/child"} {
		t.Run(name, func(t *testing.T) {
			tg := fs.Target{Key: fs.TargetKey(filepath.Join(dir, name)), DisplayPath: filepath.Join(dir, name)}
			loop := func(verb string, err error) {
				t.Helper()
				require.ErrorIs(t, err, unix.ELOOP)
				requireFsError(t, err, fs.CodeIOError, "cannot "+verb+` "`+tg.DisplayPath+`": too many levels of symbolic links — a symbolic link on the path leads back to itself; use a path without the loop`)
			}
			_, err := p.Resolve(ctx, name, fs.ResolveOptions{})
			loop("resolve", err)
			_, err = p.Stat(ctx, tg)
			loop("access", err)
			_, err = p.Lstat(ctx, name+"/x", fs.LstatOptions{})
			require.ErrorIs(t, err, unix.ELOOP)
			_, err = p.ReadText(ctx, tg)
			loop("read", err)
			_, err = p.StreamText(ctx, tg)
			loop("read", err)
			_, err = p.ReadBytes(ctx, tg, 10)
			loop("read", err)
			for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent(), fs.ReplaceIfVersion("v")} {
				_, err = p.WriteText(ctx, tg, "x", intent)
				loop("write", err)
			}
			_, err = p.EditText(ctx, tg, edit("x", "y"), nil)
			loop("edit", err)
			_, err = p.ListDir(ctx, tg)
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, fs.CodeIOError, fe.Kind)
			assert.True(t, strings.HasPrefix(fe.Message, `cannot list "`+tg.DisplayPath+`": `), fe.Message)
			assert.ErrorIs(t, err, unix.ELOOP)
			requireClean(t, p, dir)
		})
	}
}

// A read-only parent directory fails a write with the raw EACCES of the
// staging directory and leaves the target untouched (root bypasses mode
// bits, so this runs only unprivileged).
func TestReadOnlyParentDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses directory permissions")
	}
	p, dir := newProvider(t)
	ro := filepath.Join(dir, "ro")
	writeFile(t, filepath.Join(ro, "f"), "old")
	require.NoError(t, os.Chmod(ro, 0o555))
	t.Cleanup(func() { _ = os.Chmod(ro, 0o755) })
	tg := resolve(t, p, "ro/f")
	for _, intent := range []*fs.WriteIntent{nil, fs.ReplaceIfVersion(versionOf(t, p, tg))} {
		_, err := p.WriteText(context.Background(), tg, "new", intent)
		require.True(t, errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM), "%v", err)
	}
	_, err := p.EditText(context.Background(), tg, edit("old", "new"), nil)
	require.True(t, errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM), "%v", err)
	_, err = p.WriteText(context.Background(), resolve(t, p, "ro/new"), "x", fs.CreateIfAbsent())
	require.True(t, errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM), "%v", err)
	assert.Equal(t, "old", readDisk(t, filepath.Join(ro, "f")))
	requireClean(t, p, dir)
}

// A target this provider cannot have produced (a zero Target, a relative
// key) is refused by the mutations before anything is created: they would
// otherwise write relative to the process working directory.
func TestForeignTargetsAreRefusedByMutations(t *testing.T) {
	p, dir := newProvider(t)
	t.Chdir(dir)
	for _, tg := range []fs.Target{{}, {Key: "rel/x", DisplayPath: "rel/x"}} {
		for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent(), fs.ReplaceIfVersion("v")} {
			_, err := p.WriteText(context.Background(), tg, "x", intent)
			require.ErrorIs(t, err, hostfs.ErrForeignTarget)
		}
		_, err := p.EditText(context.Background(), tg, edit("x", "y"), nil)
		require.ErrorIs(t, err, hostfs.ErrForeignTarget)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing created in the working directory")
	requireClean(t, p, dir)
}

// A missing target under a dangling symlink resolves (the key keeps the
// link's spelling), but a write cannot create its parent: mkdir's EEXIST,
// coded FS_IO_ERROR, the dangling link is left alone and nothing else is
// created.
func TestWriteUnderDanglingSymlinkParent(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dl")))
	for _, path := range []string{"dl/child", "dl/a/b"} {
		tg := resolve(t, p, path)
		for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent()} {
			_, err := p.WriteText(context.Background(), tg, "x", intent)
			require.ErrorIs(t, err, unix.EEXIST, path)
			requireFsError(t, err, fs.CodeIOError, `cannot write "`+tg.DisplayPath+`": file exists — an entry on the path is in the way of a directory (a dangling symbolic link, say)`)
		}
	}
	assert.NoFileExists(t, filepath.Join(dir, "nowhere"))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	requireClean(t, p, dir)
}
