package statedir_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/statedir"
)

func TestARingReachesTheListenerOnly(t *testing.T) {
	bell := filepath.Join(t.TempDir(), "bell")
	assert.False(t, statedir.RingFIFO(bell), "no FIFO yet")
	f, err := statedir.ListenFIFO(bell)
	require.NoError(t, err)
	got := make(chan error, 1)
	go func() {
		var b [8]byte
		_, err := f.Read(b[:])
		got <- err
	}()
	assert.True(t, statedir.RingFIFO(bell))
	select {
	case err := <-got:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the ring was not read")
	}
	// A Close ends a Read parked on the FIFO.
	go func() {
		var b [8]byte
		_, err := f.Read(b[:])
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, f.Close())
	select {
	case err := <-got:
		assert.ErrorIs(t, err, os.ErrClosed)
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the Read")
	}
	assert.False(t, statedir.RingFIFO(bell), "nobody listens once the listener closed it")
}

func TestARingOfAFullFIFOCounts(t *testing.T) {
	bell := filepath.Join(t.TempDir(), "bell")
	f, err := statedir.ListenFIFO(bell)
	require.NoError(t, err)
	defer f.Close()
	for i := range 70000 { // past a pipe's 64 KiB buffer
		require.True(t, statedir.RingFIFO(bell), "ring %d", i)
	}
}

func TestTheBellMustBeAPrivateFIFO(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("keep"), 0o600))
	_, err := statedir.ListenFIFO(plain)
	require.ErrorIs(t, err, statedir.ErrRefused)
	assert.False(t, statedir.RingFIFO(plain))
	b, err := os.ReadFile(plain)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b), "a ring writes nothing into a regular file")

	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(filepath.Join(dir, "elsewhere"), link))
	_, err = statedir.ListenFIFO(link)
	require.ErrorIs(t, err, statedir.ErrRefused)
	_, err = os.Lstat(filepath.Join(dir, "elsewhere"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "nothing made through the link")

	open := filepath.Join(dir, "open")
	f, err := statedir.ListenFIFO(open)
	require.NoError(t, err)
	f.Close()
	require.NoError(t, os.Chmod(open, 0o622))
	_, err = statedir.ListenFIFO(open)
	require.ErrorIs(t, err, statedir.ErrRefused, "a FIFO another user can write")
}
