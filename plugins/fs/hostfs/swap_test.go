package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

// swapCtx never cancels; its n-th Err call runs swap once. Every checkpoint
// of a mutation calls Err, so stepping n moves the swap through every window
// between the probe and the publication.
type swapCtx struct {
	context.Context
	mu    sync.Mutex
	n     int
	swap  func()
	fired bool
}

func (c *swapCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
	if c.n == 0 {
		c.fired = true
		c.swap()
	}
	return nil
}

func (c *swapCtx) hasFired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fired
}

// TestTargetSwappedDuringMutation replaces the target with a directory, a
// FIFO, a symlink to another file, a dangling symlink or a competitor's file
// at every checkpoint of a write (each intent) and an edit. Whatever the
// moment, the call returns (never blocks on the FIFO, never panics), leaves
// no staging residue or lock, never writes through the swapped-in symlink, and
// either fails leaving the swapped-in entry intact or (unguarded or
// version-guarded replacement after its check: the documented cross-process
// window) replaces the entry itself atomically with the complete content.
// A guarded create never replaces anything.
func TestTargetSwappedDuringMutation(t *testing.T) {
	type kind struct {
		name  string
		make  func(path, other string) error
		check func(t *testing.T, path string) // the swapped-in entry is intact
	}
	lstatMode := func(t *testing.T, path string) os.FileMode {
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		return fi.Mode()
	}
	kinds := []kind{
		{"directory", func(p, _ string) error { return os.Mkdir(p, 0o755) },
			func(t *testing.T, p string) { assert.True(t, lstatMode(t, p).IsDir()) }},
		{"fifo", func(p, _ string) error { return unix.Mkfifo(p, 0o644) },
			func(t *testing.T, p string) { assert.Equal(t, os.ModeNamedPipe, lstatMode(t, p).Type()) }},
		{"symlink to another file", func(p, other string) error { return os.Symlink(other, p) },
			func(t *testing.T, p string) { assert.Equal(t, os.ModeSymlink, lstatMode(t, p).Type()) }},
		{"dangling symlink", func(p, _ string) error { return os.Symlink("nowhere", p) },
			func(t *testing.T, p string) { assert.Equal(t, os.ModeSymlink, lstatMode(t, p).Type()) }},
		{"competitor file", func(p, _ string) error { return os.WriteFile(p, []byte("theirs"), 0o644) },
			func(t *testing.T, p string) { assert.Equal(t, "theirs", readDisk(t, p)) }},
	}
	type op struct {
		name     string
		existing bool
		replaces bool // may legitimately replace an entry swapped in after its checks
		run      func(ctx context.Context, p *hostfs.Provider, tg fs.Target, v fs.Version) error
	}
	ops := []op{
		{"write unguarded over a file", true, true, func(ctx context.Context, p *hostfs.Provider, tg fs.Target, _ fs.Version) error {
			_, err := p.WriteText(ctx, tg, "ours", nil)
			return err
		}},
		{"write unguarded create", false, true, func(ctx context.Context, p *hostfs.Provider, tg fs.Target, _ fs.Version) error {
			_, err := p.WriteText(ctx, tg, "ours", nil)
			return err
		}},
		{"write replaceIfVersion", true, true, func(ctx context.Context, p *hostfs.Provider, tg fs.Target, v fs.Version) error {
			_, err := p.WriteText(ctx, tg, "ours", fs.ReplaceIfVersion(v))
			return err
		}},
		{"write createIfAbsent", false, false, func(ctx context.Context, p *hostfs.Provider, tg fs.Target, _ fs.Version) error {
			_, err := p.WriteText(ctx, tg, "ours", fs.CreateIfAbsent())
			return err
		}},
		{"edit", true, true, func(ctx context.Context, p *hostfs.Provider, tg fs.Target, v fs.Version) error {
			_, err := p.EditText(ctx, tg, edit("base", "ours"), &fs.EditGuard{Version: v})
			return err
		}},
	}
	for _, k := range kinds {
		for _, o := range ops {
			t.Run(k.name+"/"+o.name, func(t *testing.T) {
				for n := 1; ; n++ {
					p, dir := newProvider(t)
					path := filepath.Join(dir, "t.txt")
					other := filepath.Join(dir, "other.txt")
					writeFile(t, other, "other")
					var v fs.Version
					tg := resolve(t, p, "t.txt")
					if o.existing {
						writeFile(t, path, "base")
						v = versionOf(t, p, tg)
					}
					ctx := &swapCtx{Context: context.Background(), n: n, swap: func() {
						_ = os.Remove(path)
						require.NoError(t, k.make(path, other))
					}}
					done := make(chan error, 1)
					go func() { done <- o.run(ctx, p, tg, v) }()
					var err error
					select {
					case err = <-done:
					case <-time.After(10 * time.Second):
						t.Fatalf("checkpoint %d: the mutation blocked", n)
					}
					if !ctx.hasFired() {
						require.Greater(t, n, 1, "the swap landed at some checkpoint")
						require.NoError(t, err, "unswapped run")
						assert.Equal(t, "ours", readDisk(t, path))
						requireClean(t, p, dir)
						return
					}
					assert.Equal(t, "other", readDisk(t, other), "checkpoint %d: never written through the swapped-in link", n)
					requireClean(t, p, dir)
					if err == nil {
						require.True(t, o.replaces, "checkpoint %d: a guarded create replaced a %s", n, k.name)
						fi, lerr := os.Lstat(path)
						require.NoError(t, lerr)
						require.True(t, fi.Mode().IsRegular(), "checkpoint %d", n)
						assert.Equal(t, "ours", readDisk(t, path), "checkpoint %d: complete content", n)
						continue
					}
					assert.NotEmpty(t, err.Error())
					k.check(t, path)
				}
			})
		}
	}
}
