package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// A regular file replaced by a FIFO or a directory after the read preflight
// (stat) and before the open is still refused as not a regular file: the
// open never blocks waiting for a FIFO writer, and a directory never reaches
// the reader as a raw EISDIR.
func TestReadTargetSwappedAfterPreflight(t *testing.T) {
	swaps := map[string]func(path string) error{
		"fifo":      func(path string) error { return unix.Mkfifo(path, 0o644) },
		"directory": func(path string) error { return os.Mkdir(path, 0o755) },
	}
	for name, swap := range swaps {
		t.Run(name, func(t *testing.T) {
			p, dir := newProvider(t)
			path := filepath.Join(dir, "f.txt")
			replace := func() {
				require.NoError(t, os.Remove(path))
				require.NoError(t, swap(path))
			}
			msg := `cannot read "` + path + `": not a regular file`
			within(t, func() {
				writeFile(t, path, "text")
				tg := resolve(t, p, "f.txt")
				hostfs.SetAfterPreflight(p, func(fs.Target) { replace() })
				_, err := p.ReadBytes(context.Background(), tg, 100)
				requireFsError(t, err, fs.CodeNotRegularFile, msg)
				hostfs.SetAfterPreflight(p, nil)

				for _, lend := range []bool{false, true} {
					require.NoError(t, os.RemoveAll(path))
					writeFile(t, path, "text")
					var err error
					if lend {
						seq, serr := p.StreamTextBytes(context.Background(), tg)
						require.NoError(t, serr)
						replace()
						for _, e := range seq {
							err = e
						}
					} else {
						seq, serr := p.StreamText(context.Background(), tg)
						require.NoError(t, serr)
						replace()
						for _, e := range seq {
							err = e
						}
					}
					requireFsError(t, err, fs.CodeNotRegularFile, msg)
				}
			})
		})
	}
}

// within fails the test if fn does not return within 10 seconds.
func within(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked")
	}
}
