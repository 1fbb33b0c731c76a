package hostfs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// An extended attribute the staged file cannot take fails the write with
// FS_IO_ERROR naming it, before publication: the target keeps its content,
// no staging residue, no descriptor left open.
func TestAtomicKeptXattrFailure(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "t")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o640))
	fds := openFDs(t)
	keep := &keptMeta{uid: -1, gid: -1, mode: 0o640, xattrs: []xattr{{"user.fine", []byte("1")}, {"nonamespace.x", []byte("2")}}}
	err := writeFileAtomic(context.Background(), target, "new", atomicOptions{keep: keep, display: "/d/t"})
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fs.CodeIOError, fe.Kind)
	assert.Equal(t, `cannot write "/d/t": cannot keep its extended attribute "nonamespace.x": operation not supported`, fe.Message)
	require.ErrorIs(t, err, unix.EOPNOTSUPP)
	assert.Equal(t, "old", string(mustRead(t, target)))
	requireNoLeak(t, dir, []string{"t"}, fds)
}

// A kept attribute the staged file already holds with the same value (a label
// the kernel gave it) is not an error even where setting it fails.
func TestHasXattr(t *testing.T) {
	f, err := os.Create(filepath.Join(tempDir(t), "f"))
	require.NoError(t, err)
	defer f.Close()
	fd := int(f.Fd())
	require.NoError(t, unix.Fsetxattr(fd, "user.label", []byte("v"), 0))
	assert.True(t, hasXattr(fd, xattr{"user.label", []byte("v")}))
	assert.False(t, hasXattr(fd, xattr{"user.label", []byte("w")}))
	assert.False(t, hasXattr(fd, xattr{"user.absent", nil}))
}
