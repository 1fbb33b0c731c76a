package toolfs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// readImageWithin runs read_image and fails the test if it does not return within d (a FIFO must
// never hang the call).
func readImageWithin(t *testing.T, e *imgEnv, s *tools.Session, p string, d time.Duration) tools.Result {
	t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- e.readImage(s, p) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("read_image %q did not return within %v", p, d)
		return tools.Result{}
	}
}

// TestReadImageSpecialFiles: FIFOs (with and without an extension), directories, symlinks in and
// out of the working directory, dangling symlinks and symlinks to directories, over the real local
// provider and store. Every refusal is the provider's exact message and code, no observation is
// emitted for a non-regular file and nothing is stored.
func TestReadImageSpecialFiles(t *testing.T) {
	e := newLocalEnv(t, nil)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent()) // no call leaves a goroutine behind (a FIFO reader would)
	e.writeBytes(t, "red.png", png1x1)
	outside := filepath.Join(t.TempDir(), "outside.png")
	require.NoError(t, os.WriteFile(outside, png1x1, 0o644))
	require.NoError(t, syscall.Mkfifo(e.path("pipe.png"), 0o644))
	require.NoError(t, syscall.Mkfifo(e.path("pipe"), 0o644))
	require.NoError(t, os.Mkdir(e.path("dir"), 0o755))
	require.NoError(t, os.Symlink("red.png", e.path("in.png")))
	require.NoError(t, os.Symlink(outside, e.path("out.png")))
	require.NoError(t, os.Symlink("missing.png", e.path("dangling.png")))
	require.NoError(t, os.Symlink("dir", e.path("dirlink.png")))
	require.NoError(t, os.Symlink("pipe.png", e.path("pipelink.png")))

	for _, name := range []string{"pipe.png", "pipe", "dir", "dirlink.png", "pipelink.png"} {
		t.Run("not regular "+name, func(t *testing.T) {
			r := readImageWithin(t, e.imgEnv, vision(e.imgEnv), name, 10*time.Second)
			requireFailure(t, r, `Error: cannot read "`+e.path(name)+`": not a regular file`, "FS_NOT_REGULAR_FILE")
			assert.Empty(t, e.takeObserved())
		})
	}
	t.Run("dangling", func(t *testing.T) {
		r := e.readImage(vision(e.imgEnv), "dangling.png")
		requireFailure(t, r, `Error: cannot read "`+e.path("dangling.png")+`": not found`, "FS_NOT_FOUND")
		assert.Equal(t, []string{"absent " + e.path("dangling.png")}, e.takeObserved())
	})
	for _, name := range []string{"in.png", "out.png"} {
		t.Run("symlink "+name, func(t *testing.T) {
			r := e.readImage(vision(e.imgEnv), name)
			requireOK(t, r)
			dp, ref := imageValue(t, valueJSON(t, r))
			assert.Equal(t, e.path(name), dp, "the display path keeps the link's spelling")
			assert.Equal(t, name, ref.Name)
			assert.Equal(t, []string{"present " + dp}, e.takeObserved())
		})
	}
	objects, err := os.ReadDir(filepath.Join(e.home, "attachments", "v1", "objects"))
	require.NoError(t, err)
	assert.Len(t, objects, 1, "only the one image was stored")
}

// TestReadImageUnreadableFile: a file without read permission fails with the provider's permission
// error, observes nothing and stores nothing (skipped as root, which reads anyway).
func TestReadImageUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses file permissions")
	}
	e := newLocalEnv(t, nil)
	e.writeBytes(t, "secret.png", png1x1)
	require.NoError(t, os.Chmod(e.path("secret.png"), 0))
	r := e.readImage(vision(e.imgEnv), "secret.png")
	require.True(t, r.IsError)
	assert.Contains(t, r.Text(), "permission denied")
	assert.Empty(t, r.Code())
	assert.Empty(t, e.takeObserved())
	_, err := os.Stat(filepath.Join(e.home, "attachments"))
	assert.True(t, os.IsNotExist(err), "nothing stored")
}

// TestReadImageNULPath: a path with a NUL byte is refused by the provider without I/O and without
// an observation.
func TestReadImageNULPath(t *testing.T) {
	e := newLocalEnv(t, nil)
	e.writeBytes(t, "red.png", png1x1)
	for _, p := range []string{"red.png\x00.txt", "re\x00d.png", "noext\x00"} {
		r := e.readImage(vision(e.imgEnv), p)
		require.True(t, r.IsError, "%q", p)
		assert.Empty(t, e.takeObserved(), "%q", p)
	}
	_, err := os.Stat(filepath.Join(e.home, "attachments"))
	assert.True(t, os.IsNotExist(err), "nothing stored")
}
