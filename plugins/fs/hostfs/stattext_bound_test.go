package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// StatText never reads a file to its bound. A small file replaced by a large one between the look
// and the open is described as the large one (its size and version), not read; a file that holds
// more than its fstat says (a /proc file says 0 bytes) is read no further than the bound and
// described as at least that large. Either way the caller takes it as a large file.
func TestStatTextDescribesAFileThatReachedItsBound(t *testing.T) {
	ctx := context.Background()
	p, dir := newProvider(t)
	path := filepath.Join(dir, "f.txt")
	writeFile(t, path, "small\n")
	tg := resolve(t, p, "f.txt")
	hostfs.SetAfterPreflight(p, func(fs.Target) {
		writeFile(t, path+".new", strings.Repeat("x", 100))
		require.NoError(t, os.Rename(path+".new", path))
	})
	info, read, err := p.StatText(ctx, tg, 64)
	hostfs.SetAfterPreflight(p, nil)
	require.NoError(t, err)
	assert.Nil(t, read, "a file of the bound is not read")
	now, err := p.Stat(ctx, tg)
	require.NoError(t, err)
	assert.Equal(t, int64(100), info.Size)
	assert.Equal(t, now.Version, info.Version, "the version of the file opened")

	maps := resolve(t, p, "/proc/self/maps")
	info, read, err = p.StatText(ctx, maps, 16)
	require.NoError(t, err)
	assert.Nil(t, read)
	assert.Equal(t, fs.TypeFile, info.Type)
	assert.Equal(t, int64(16), info.Size, "at least the bound")

	_, read, err = p.StatText(ctx, maps, 1<<20)
	require.NoError(t, err)
	require.NotNil(t, read, "below a bound it does not reach, the file is read")
	assert.Greater(t, len(read.Text), 16)
}
