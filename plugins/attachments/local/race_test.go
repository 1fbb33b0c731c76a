package local

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(es)
}

// Concurrent admissions of different images and of the same image, verified
// reads and startup sweeps of the same root (a remount, or a peer process
// starting) all run at once under the race detector: every save succeeds,
// every object reads back verbatim, each image has exactly one object, the
// sweep removes nothing in flight and no staging residue remains.
func TestConcurrentAdmissionsReadsAndSweeps(t *testing.T) {
	s := newStore(t, func(c *Config) { c.ImageCompressionConcurrency = 4 })
	peer := newStore(t, func(c *Config) { c.Home = &s.home })
	var images [][]byte
	for i := range 6 {
		images = append(images, encPNG(t, flat(3+i, 2, color.NRGBA{uint8(40 * i), 9, 9, 255})))
	}
	images = append(images, encJPEG(t, photo(40, 30), 90), encPNG(t, noise(30, 20, 3, true)))
	const rounds = 4
	refs := make([][]attachments.ImageRef, len(images))
	for i := range refs {
		refs[i] = make([]attachments.ImageRef, 2*rounds)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var sweeps sync.WaitGroup
	sweeps.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				_, err := sweep(s.root, processStart)
				assert.NoError(t, err)
			}
		}
	})
	for i, img := range images {
		for r := range 2 * rounds {
			store := s
			if r%2 == 1 {
				store = peer
			}
			wg.Go(func() {
				ref, err := store.SaveImage(context.Background(), attachments.SaveImage{Data: img, MediaType: saveInput(img).MediaType})
				if !assert.NoError(t, err) {
					return
				}
				refs[i][r] = ref
				got, err := store.ReadImage(context.Background(), ref)
				if assert.NoError(t, err) {
					assert.Len(t, got.Data, ref.Bytes)
				}
			})
		}
	}
	wg.Wait()
	close(stop)
	sweeps.Wait()
	for i := range images {
		for r := range refs[i] {
			assert.Equal(t, refs[i][0], refs[i][r], "image %d: every save returns the same ref", i)
		}
		assert.FileExists(t, objectOf(s, refs[i][0]))
	}
	assert.Empty(t, dirNames(t, filepath.Join(s.root, "tmp")), "no staging residue")
}

// Failing reads and saves (missing, directory, FIFO, corrupt and oversized
// objects, unwritable storage) close every descriptor they open.
func TestNoDescriptorLeaks(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref := save(t, s, png90, attachments.MediaTypePNG)
	obj := objectOf(s, ref)
	before := openFDs(t)
	for range 20 {
		_, err := s.ReadImage(ctx, ref)
		require.NoError(t, err)
		_, _ = s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
	}
	require.NoError(t, os.WriteFile(obj, []byte{1, 2, 3}, 0o600))
	for _, setup := range []func(){
		func() {}, // corrupt
		func() { require.NoError(t, os.Truncate(obj, 1<<32)) },
		func() { require.NoError(t, os.Remove(obj)); require.NoError(t, syscall.Mkfifo(obj, 0o600)) },
		func() { require.NoError(t, os.Remove(obj)); require.NoError(t, os.Mkdir(obj, 0o700)) },
	} {
		setup()
		for range 10 {
			_, err := s.ReadImage(ctx, ref)
			require.Error(t, err)
			_, err = s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
			require.Error(t, err)
		}
	}
	require.NoError(t, os.Remove(obj))
	for range 10 {
		_, err := s.ReadImage(ctx, ref)
		require.True(t, errorIsExactly(err, attachments.CodeNotFound, attachments.MsgNotFound), "%v", err)
	}
	// Storage that cannot be written (a file where the staging directory
	// belongs) fails the save without leaking either.
	require.NoError(t, os.RemoveAll(filepath.Join(s.root, "tmp")))
	require.NoError(t, os.WriteFile(filepath.Join(s.root, "tmp"), nil, 0o600))
	for range 10 {
		_, err := s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
		require.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgWriteFailed), "%v", err)
		require.NotContains(t, err.Error(), s.home)
	}
	assert.LessOrEqual(t, openFDs(t), before, "no descriptor outlives a call")
}

// A home that cannot be created (a regular file in its place, or as its
// parent) fails every save with ATTACHMENT_WRITE_FAILED, the OS error
// chained and no host path in the message; reads report the object missing.
func TestUnusableHome(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	for _, home := range []string{file, filepath.Join(file, "home")} {
		s := newStore(t, func(c *Config) { c.Home = &home })
		ref, err := s.SaveImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
		assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgWriteFailed), "%s: %v", home, err)
		assert.NotContains(t, err.Error(), dir)
		assert.ErrorIs(t, err, syscall.ENOTDIR, "the OS error is the cause")
		assert.Zero(t, ref)
		_, err = s.ReadImage(context.Background(), attachments.ImageRef{AttachmentID: png90ID, MediaType: attachments.MediaTypePNG, Bytes: 90, Width: 1, Height: 1})
		assert.True(t, attachments.HasCode(err, attachments.CodeNotFound) || attachments.HasCode(err, attachments.CodeReadFailed), "%v", err)
	}
}

// docs/attachments.md "Storage": every directory the store creates is private
// (0700), a pre-existing home is chmodded to 0700 by the first save, objects
// and staging files are 0600, whatever the umask allows.
func TestCreatedPermissions(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	s := newStore(t)
	require.NoError(t, os.MkdirAll(s.home, 0o755))
	require.NoError(t, os.Chmod(s.home, 0o755))
	ref := save(t, s, png90, attachments.MediaTypePNG)
	mode := func(p string) os.FileMode {
		info, err := os.Stat(p)
		require.NoError(t, err)
		return info.Mode().Perm()
	}
	for _, d := range []string{s.home, filepath.Join(s.home, "attachments"), s.root, filepath.Join(s.root, "objects"),
		filepath.Dir(objectOf(s, ref)), filepath.Join(s.root, "tmp")} {
		assert.Equal(t, os.FileMode(0o700), mode(d), d)
	}
	assert.Equal(t, os.FileMode(0o600), mode(objectOf(s, ref)))
	var staged os.FileMode
	s.beforeLink = func(tmp string) { staged = mode(tmp) }
	save(t, s, png69, attachments.MediaTypePNG)
	assert.Equal(t, os.FileMode(0o600), staged)
}
