package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// A goroutine exchanges ws/d (a directory) and ws/dl (a symlink out) atomically in a loop while
// confined writes resolve and write below both names, with openat2 and with the walk: the outside
// directory stays empty.
func TestBeneathSwapRace(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		d, dl := filepath.Join(fx.ws, "d"), filepath.Join(fx.ws, "dl")
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.Symlink(fx.out, dl))
		done := make(chan struct{})
		var swaps atomic.Int64
		var racer sync.WaitGroup
		racer.Add(1)
		go func() {
			defer racer.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, dl, unix.RENAME_EXCHANGE) == nil {
					swaps.Add(1)
				}
			}
		}()
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 100 {
					rel := filepath.Join([]string{"d", "dl"}[r%2], "n"+strconv.Itoa(i)+"-"+strconv.Itoa(r%7), "f.txt")
					tg, err := fx.p.Resolve(context.Background(), filepath.Join(fx.ws, rel), fs.ResolveOptions{})
					if err != nil {
						continue
					}
					_, err = fx.p.WriteTextBeneath(context.Background(), tg, "x", nil, Beneath{Root: fx.ws})
					switch {
					case err == nil:
						ok.Add(1)
					case errors.Is(err, ErrEscape):
						refused.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		close(done)
		racer.Wait()
		t.Logf("swaps %d, written %d, refused %d", swaps.Load(), ok.Load(), refused.Load())
		assert.Empty(t, entries(t, fx.out), "nothing outside the root")
		assert.Positive(t, ok.Load())
		assert.Positive(t, refused.Load())
	})
}

// Confined mutations, refused or not, leave no descriptor open.
func TestBeneathLeaksNoDescriptor(t *testing.T) {
	resolvers(t, func(t *testing.T) {
		fx := newBeneathFixture(t)
		require.NoError(t, os.Symlink(fx.out, filepath.Join(fx.ws, "link")))
		require.NoError(t, os.WriteFile(filepath.Join(fx.ws, "e.txt"), []byte("a"), 0o644))
		fds := func() int {
			des, err := os.ReadDir("/proc/self/fd")
			require.NoError(t, err)
			return len(des)
		}
		run := func() {
			for _, rel := range []string{"a/b/c.txt", "link/x.txt", "top.txt", "e.txt"} {
				tg, err := fx.p.Resolve(context.Background(), filepath.Join(fx.ws, rel), fs.ResolveOptions{})
				require.NoError(t, err)
				_, _ = fx.p.WriteTextBeneath(context.Background(), tg, "x", nil, fx.beneath)
				_, _ = fx.p.WriteTextBeneath(context.Background(), tg, "x", fs.CreateIfAbsent(), fx.beneath)
				_, _ = fx.p.EditTextBeneath(context.Background(), tg, fs.EditRequest{OldString: "x", NewString: "y"}, nil, fx.beneath)
			}
			// A swap after the check, refused at the syscall.
			d := filepath.Join(fx.ws, "d")
			require.NoError(t, os.MkdirAll(d, 0o755))
			tg, err := fx.p.Resolve(context.Background(), filepath.Join(d, "f"), fs.ResolveOptions{})
			require.NoError(t, err)
			require.NoError(t, os.RemoveAll(d))
			require.NoError(t, os.Symlink(fx.out, d))
			_, err = fx.write(tg, "x", nil, &atomicHooks{})
			require.ErrorIs(t, err, ErrEscape)
			require.NoError(t, os.Remove(d))
		}
		run() // warm up lazily opened descriptors
		before := fds()
		for range 5 {
			run()
		}
		assert.Equal(t, before, fds())
		assert.Empty(t, entries(t, fx.out))
	})
}
