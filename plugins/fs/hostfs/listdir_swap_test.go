package hostfs

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// A directory replaced by a FIFO or a file between ListDir's probe and its
// open is FS_NOT_DIRECTORY, and the open never blocks on the FIFO.
func TestReadNamesRefusesNonDirectories(t *testing.T) {
	dir := tempDir(t)
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, path := range []string{fifo, file} {
			_, err := readNames(context.Background(), path, "/shown/"+filepath.Base(path))
			var fe *fs.Error
			if assert.ErrorAs(t, err, &fe, path) {
				assert.Equal(t, fs.CodeNotDirectory, fe.Kind)
				assert.Equal(t, `cannot list "/shown/`+filepath.Base(path)+`": not a directory`, fe.Message)
			}
		}
		_, err := readNames(context.Background(), filepath.Join(file, "child"), "/shown/child")
		assert.ErrorIs(t, err, unix.ENOTDIR, "an ancestor that is a file stays a raw ENOTDIR (mapped to not found by ListDir)")
		names, err := readNames(context.Background(), dir, "/shown")
		assert.NoError(t, err)
		assert.ElementsMatch(t, []string{"fifo", "file"}, names)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked opening a FIFO")
	}
}
