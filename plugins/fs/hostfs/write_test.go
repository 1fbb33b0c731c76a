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
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

func TestWriteTextCreate(t *testing.T) {
	p, dir := newProvider(t)
	tg := resolve(t, p, "sub/dir/new.txt")
	out, err := p.WriteText(context.Background(), tg, "a\r\nb\n", nil)
	require.NoError(t, err)
	assert.Equal(t, fs.OperationCreate, out.Operation)
	assert.Nil(t, out.Before)
	assert.Equal(t, "a\nb\n", out.After, "after is LF-normalized")
	assert.Equal(t, "a\r\nb\n", readDisk(t, filepath.Join(dir, "sub/dir/new.txt")), "disk bytes are the content as given")
	assert.Equal(t, hostfs.CreatedMode(t), permOf(t, string(tg.Key)), "0666 under the umask (TestNewFileModeFollowsTheUmask)")
	assert.Equal(t, versionOf(t, p, tg), out.Version)
	requireClean(t, p, dir)
}

func TestWriteTextOverwrite(t *testing.T) {
	for _, perm := range []os.FileMode{0o640, 0o755, 0o200} { // no write bit at all: TestReplaceRefusesReadOnlyFiles
		t.Run(perm.String(), func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f.txt")
			writeFile(t, path, "old\r\nline\r\n")
			require.NoError(t, os.Chmod(path, perm))
			tg := resolve(t, p, "f.txt")
			before := versionOf(t, p, tg)
			out, err := p.WriteText(context.Background(), tg, "new\r\n", nil)
			require.NoError(t, err)
			assert.Equal(t, fs.OperationUpdate, out.Operation)
			if perm&0o400 == 0 && os.Geteuid() != 0 {
				assert.Nil(t, out.Before, "a file its user may not read has no before text")
			} else {
				assert.Equal(t, strPtr("old\nline\n"), out.Before)
			}
			assert.Equal(t, "new\n", out.After)
			assert.NotEqual(t, before, out.Version)
			assert.Equal(t, versionOf(t, p, tg), out.Version)
			assert.Equal(t, "new\r\n", readDisk(t, path))
			assert.Equal(t, perm, permOf(t, path), "permission bits preserved")
			requireClean(t, p, dir)
		})
	}
}

func TestWriteTextSameContentChangesVersion(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "f.txt"), "same")
	tg := resolve(t, p, "f.txt")
	v0 := versionOf(t, p, tg)
	out, err := p.WriteText(context.Background(), tg, "same", nil)
	require.NoError(t, err)
	assert.NotEqual(t, v0, out.Version)
}

func TestWriteTextIntents(t *testing.T) {
	ctx := context.Background()
	t.Run("replaceIfVersion current", func(t *testing.T) {
		p, dir := newProvider(t)
		writeFile(t, filepath.Join(dir, "f"), "one")
		tg := resolve(t, p, "f")
		out, err := p.WriteText(ctx, tg, "two", fs.ReplaceIfVersion(versionOf(t, p, tg)))
		require.NoError(t, err)
		assert.Equal(t, "two", readDisk(t, string(tg.Key)))
		// the returned version is immediately a valid guard
		_, err = p.WriteText(ctx, tg, "three", fs.ReplaceIfVersion(out.Version))
		require.NoError(t, err)
		requireClean(t, p, dir)
	})
	t.Run("replaceIfVersion stale", func(t *testing.T) {
		p, dir := newProvider(t)
		writeFile(t, filepath.Join(dir, "f"), "one")
		tg := resolve(t, p, "f")
		_, err := p.WriteText(ctx, tg, "two", fs.ReplaceIfVersion("1:2:3:4:5"))
		requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+tg.DisplayPath+`": file changed since it was read`)
		assert.Equal(t, "one", readDisk(t, string(tg.Key)))
		requireClean(t, p, dir)
	})
	t.Run("replaceIfVersion absent is not recreated", func(t *testing.T) {
		p, dir := newProvider(t)
		tg := resolve(t, p, "gone")
		_, err := p.WriteText(ctx, tg, "two", fs.ReplaceIfVersion("1:2:3:4:5"))
		requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+tg.DisplayPath+`": file no longer exists`)
		assert.NoFileExists(t, string(tg.Key))
		requireClean(t, p, dir)
	})
	t.Run("createIfAbsent absent", func(t *testing.T) {
		p, dir := newProvider(t)
		tg := resolve(t, p, "a/b/new")
		out, err := p.WriteText(ctx, tg, "hi", fs.CreateIfAbsent())
		require.NoError(t, err)
		assert.Equal(t, fs.OperationCreate, out.Operation)
		assert.Equal(t, "hi", readDisk(t, string(tg.Key)))
		assert.Equal(t, hostfs.CreatedMode(t), permOf(t, string(tg.Key)))
		var st unix.Stat_t
		require.NoError(t, unix.Stat(string(tg.Key), &st))
		assert.EqualValues(t, 1, st.Nlink, "staging link removed")
		assert.Equal(t, versionOf(t, p, tg), out.Version)
		requireClean(t, p, dir)
	})
	t.Run("createIfAbsent existing", func(t *testing.T) {
		p, dir := newProvider(t)
		writeFile(t, filepath.Join(dir, "f"), "mine")
		tg := resolve(t, p, "f")
		_, err := p.WriteText(ctx, tg, "yours", fs.CreateIfAbsent())
		requireFsError(t, err, fs.CodeNotObserved, `cannot overwrite existing "`+tg.DisplayPath+`" without reading it first`)
		assert.Equal(t, "mine", readDisk(t, string(tg.Key)))
		requireClean(t, p, dir)
	})
}

func TestWriteTextDirectoryIsNotRegularForEveryIntent(t *testing.T) {
	p, dir := newProvider(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	tg := resolve(t, p, "d")
	for name, intent := range map[string]*fs.WriteIntent{
		"none": nil, "create": fs.CreateIfAbsent(), "replace": fs.ReplaceIfVersion("x"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := p.WriteText(context.Background(), tg, "x", intent)
			requireFsError(t, err, fs.CodeNotRegularFile, `cannot write "`+tg.DisplayPath+`": not a regular file`)
			requireClean(t, p, dir)
		})
	}
}

func TestWriteTextThroughSymlink(t *testing.T) {
	p, dir := newProvider(t)
	real := filepath.Join(dir, "real.txt")
	writeFile(t, real, "old")
	require.NoError(t, os.Chmod(real, 0o640))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink("real.txt", link))
	tg := resolve(t, p, "link.txt")
	require.Equal(t, real, string(tg.Key))
	out, err := p.WriteText(context.Background(), tg, "new", fs.ReplaceIfVersion(versionOf(t, p, tg)))
	require.NoError(t, err)
	assert.Equal(t, strPtr("old"), out.Before)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link survives")
	assert.Equal(t, "new", readDisk(t, link))
	assert.Equal(t, os.FileMode(0o640), permOf(t, real))
	requireClean(t, p, dir)
}

func TestWriteTextDanglingSymlink(t *testing.T) {
	ctx := context.Background()
	t.Run("unguarded replaces the link entry", func(t *testing.T) {
		p, dir := newProvider(t)
		link := filepath.Join(dir, "dangling")
		require.NoError(t, os.Symlink("nowhere", link))
		tg := resolve(t, p, "dangling")
		out, err := p.WriteText(ctx, tg, "x", nil)
		require.NoError(t, err)
		assert.Equal(t, fs.OperationCreate, out.Operation)
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		assert.True(t, fi.Mode().IsRegular())
		assert.NoFileExists(t, filepath.Join(dir, "nowhere"))
		requireClean(t, p, dir)
	})
	t.Run("createIfAbsent refuses", func(t *testing.T) {
		p, dir := newProvider(t)
		link := filepath.Join(dir, "dangling")
		require.NoError(t, os.Symlink("nowhere", link))
		tg := resolve(t, p, "dangling")
		_, err := p.WriteText(ctx, tg, "x", fs.CreateIfAbsent())
		requireFsError(t, err, fs.CodeNotRegularFile, `cannot write "`+tg.DisplayPath+`": not a regular file`)
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
		requireClean(t, p, dir)
	})
}

func TestWriteTextExternalChangeBetweenReadAndWrite(t *testing.T) {
	ctx := context.Background()
	t.Run("modified", func(t *testing.T) {
		p, dir := newProvider(t)
		path := filepath.Join(dir, "f")
		writeFile(t, path, "v1")
		tg := resolve(t, p, "f")
		v := versionOf(t, p, tg)
		require.NoError(t, os.WriteFile(path, []byte("v2"), 0o644)) // same size, in place
		_, err := p.WriteText(ctx, tg, "mine", fs.ReplaceIfVersion(v))
		requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+tg.DisplayPath+`": file changed since it was read`)
		assert.Equal(t, "v2", readDisk(t, path))
		requireClean(t, p, dir)
	})
	t.Run("deleted", func(t *testing.T) {
		p, dir := newProvider(t)
		path := filepath.Join(dir, "f")
		writeFile(t, path, "v1")
		tg := resolve(t, p, "f")
		v := versionOf(t, p, tg)
		require.NoError(t, os.Remove(path))
		_, err := p.WriteText(ctx, tg, "mine", fs.ReplaceIfVersion(v))
		requireFsError(t, err, fs.CodeStaleVersion, `cannot write "`+tg.DisplayPath+`": file no longer exists`)
		assert.NoFileExists(t, path)
		requireClean(t, p, dir)
	})
}

func TestWriteTextDiffBasis(t *testing.T) {
	const limit = 64
	cases := []struct {
		name    string
		prior   string
		content string
		want    *string
	}{
		{"both below", "old\r\n", "new", strPtr("old\n")},
		{"new content at the bound", "old", strings.Repeat("x", limit), nil},
		{"new content just below", "old", strings.Repeat("x", limit-1), strPtr("old")},
		{"prior at the bound", strings.Repeat("o", limit), "new", nil},
		{"prior just below", strings.Repeat("o", limit-1), "new", strPtr(strings.Repeat("o", limit-1))},
		{"prior binary (late NUL)", "text\x00", "new", nil},
		{"prior invalid UTF-8", "a\xffb", "new", nil},
		{"prior BOM is invisible", "\uFEFFold", "new", strPtr("old")},
		{"bound counts UTF-8 bytes", "old", strings.Repeat("é", limit/2), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			p, err := hostfs.New(hostfs.Config{Cwd: dir, DiffBasisMaxBytes: limit}, nil)
			require.NoError(t, err)
			writeFile(t, filepath.Join(dir, "f"), tc.prior)
			out, err := p.WriteText(context.Background(), resolve(t, p, "f"), tc.content, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, out.Before)
			requireClean(t, p, dir)
		})
	}
}

// TestWriteTextBOM pins a decided deviation (docs/fs.md "Decided deviations from the
// reference": the BOM is kept): the reference drops a leading BOM when it
// rewrites a file; a write over a file that had one keeps it,
// and it stays invisible to Before/After.
func TestWriteTextBOM(t *testing.T) {
	const bom = "\uFEFF"
	cases := []struct {
		name, prior, content, disk, after string
		created                           bool
	}{
		{"kept over a BOM file", bom + "old\n", "new\n", bom + "new\n", "new\n", false},
		{"not doubled when content has one", bom + "old", bom + "new", bom + "new", "new", false},
		{"never added to a plain file", "old", "new", "new", "new", false},
		{"never added to a new file", "", "new", "new", "new", true},
		{"a content BOM is written but invisible", "", bom + "x\r\n", bom + "x\r\n", "x\n", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f")
			if !tc.created {
				writeFile(t, path, tc.prior)
			}
			out, err := p.WriteText(context.Background(), resolve(t, p, "f"), tc.content, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.disk, readDisk(t, path))
			assert.Equal(t, tc.after, out.After)
			if out.Before != nil {
				assert.False(t, strings.HasPrefix(*out.Before, bom))
			}
			requireClean(t, p, dir)
		})
	}
	t.Run("kept above the diff-basis bound", func(t *testing.T) {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
		p, err := hostfs.New(hostfs.Config{Cwd: dir, DiffBasisMaxBytes: 4}, nil)
		require.NoError(t, err)
		path := filepath.Join(dir, "f")
		writeFile(t, path, bom+"old old")
		out, err := p.WriteText(context.Background(), resolve(t, p, "f"), "new new", nil)
		require.NoError(t, err)
		assert.Nil(t, out.Before)
		assert.Equal(t, bom+"new new", readDisk(t, path))
	})
}

func TestWriteTextParentIsFile(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, filepath.Join(dir, "afile"), "x")
	// Resolution already refuses the path; a target built before the file
	// appeared fails with mkdir's ENOTDIR, coded, and leaves nothing behind.
	tg := fs.Target{Key: fs.TargetKey(filepath.Join(dir, "afile", "child")), DisplayPath: filepath.Join(dir, "afile", "child")}
	_, err := p.WriteText(context.Background(), tg, "x", nil)
	requireFsError(t, err, fs.CodeNotFound, `cannot write "`+tg.DisplayPath+`": a parent path segment is not a directory`)
	assert.ErrorIs(t, err, unix.ENOTDIR)
	requireClean(t, p, dir)
}
