package hostfs_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

var versionPattern = regexp.MustCompile(`^\d+:\d+:\d+:\d+:\d+$`)

func TestStatVersionToken(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/f.txt", "hello")
	info, err := p.Stat(context.Background(), resolve(t, p, "f.txt"))
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeFile, info.Type)
	assert.True(t, info.HasSize)
	assert.Equal(t, int64(5), info.Size)
	require.Regexp(t, versionPattern, string(info.Version))

	var st unix.Stat_t
	require.NoError(t, unix.Stat(dir+"/f.txt", &st))
	parts := strings.Split(string(info.Version), ":")
	assert.Equal(t, strconv.FormatUint(uint64(st.Dev), 10), parts[0], "dev")
	assert.Equal(t, strconv.FormatUint(st.Ino, 10), parts[1], "ino")
	assert.Equal(t, "5", parts[2], "size")
	assert.Equal(t, strconv.FormatInt(st.Mtim.Nano(), 10), parts[3], "mtimeNs")
	assert.Equal(t, strconv.FormatInt(st.Ctim.Nano(), 10), parts[4], "ctimeNs")
}

func TestVersionChangesOnSameSizeRewriteWithRestoredMtime(t *testing.T) {
	p, dir := newProvider(t)
	path := dir + "/f.txt"
	writeFile(t, path, "aaaa")
	tg := resolve(t, p, "f.txt")
	before, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)

	time.Sleep(2 * time.Millisecond) // let ctime move on coarse clocks
	require.NoError(t, os.WriteFile(path, []byte("bbbb"), 0o644))
	require.NoError(t, os.Chtimes(path, fi.ModTime(), fi.ModTime()))

	after, err := p.Stat(context.Background(), tg)
	require.NoError(t, err)
	assert.Equal(t, before.Size, after.Size)
	assert.NotEqual(t, before.Version, after.Version, "ctime is part of the token")
}

func TestStatTypesAndAbsence(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/f", "x")
	require.NoError(t, os.Mkdir(dir+"/d", 0o755))
	require.NoError(t, unix.Mkfifo(dir+"/fifo", 0o644))
	require.NoError(t, os.Symlink("f", dir+"/link"))

	cases := []struct {
		path string
		typ  fs.FileType
	}{{"f", fs.TypeFile}, {"d", fs.TypeDirectory}, {"fifo", fs.TypeOther}, {"link", fs.TypeFile}}
	for _, c := range cases {
		info, err := p.Stat(context.Background(), resolve(t, p, c.path))
		require.NoError(t, err)
		require.NotNil(t, info, c.path)
		assert.Equal(t, c.typ, info.Type, c.path)
		assert.True(t, info.HasSize, "the local provider always reports a size (also for directories)")
	}

	info, err := p.Stat(context.Background(), resolve(t, p, "missing"))
	require.NoError(t, err)
	assert.Nil(t, info)
	// a parent segment that is a file is "absent" for stat (the target was resolved earlier).
	info, err = p.Stat(context.Background(), fs.Target{Key: fs.TargetKey(dir + "/f/child"), DisplayPath: dir + "/f/child"})
	require.NoError(t, err)
	assert.Nil(t, info)

	_, err = p.Stat(cancelled(), resolve(t, p, "f"))
	requireFsError(t, err, fs.CodeAborted, "stat aborted")
}

func TestLstat(t *testing.T) {
	p, dir := newProvider(t)
	writeFile(t, dir+"/f", "x")
	require.NoError(t, os.Symlink("f", dir+"/link"))
	require.NoError(t, os.Symlink("nowhere", dir+"/dangling"))
	other := t.TempDir()
	writeFile(t, other+"/g", "gg")

	info, err := p.Lstat(context.Background(), "link", fs.LstatOptions{})
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeSymlink, info.Type)
	assert.Equal(t, int64(1), info.Size, "size of a symlink is its length")

	info, err = p.Lstat(context.Background(), "dangling", fs.LstatOptions{})
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeSymlink, info.Type)

	info, err = p.Lstat(context.Background(), "g", fs.LstatOptions{Cwd: other})
	require.NoError(t, err)
	require.NotNil(t, info)
	assert.Equal(t, fs.TypeFile, info.Type)
	assert.Equal(t, int64(2), info.Size)

	info, err = p.Lstat(context.Background(), "missing", fs.LstatOptions{})
	require.NoError(t, err)
	assert.Nil(t, info)

	_, err = p.Lstat(context.Background(), "  ", fs.LstatOptions{})
	requireFsError(t, err, fs.CodeNotFound, "file_path must be a non-empty string")
	_, err = p.Lstat(cancelled(), "f", fs.LstatOptions{})
	requireFsError(t, err, fs.CodeAborted, "lstat aborted")
}
