package fssandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// Spec 2.4 step 2: danger-full-access delegates the caller's target unchanged: no
// re-resolution, no check, the caller's key is the one written.
func TestDangerDelegatesTheCallerTarget(t *testing.T) {
	w := newWorld(t, sandbox.DangerFullAccess, nil)
	key := filepath.Join(w.out, "by-key.txt")
	tg := fs.Target{DisplayPath: filepath.Join(w.ws, "by-display.txt"), Key: fs.TargetKey(key)}
	_, err := w.fs.WriteText(w.ctx, tg, "k", nil)
	require.NoError(t, err)
	assert.Equal(t, "k", readDisk(t, key))
	assert.NoFileExists(t, filepath.Join(w.ws, "by-display.txt"))

	_, err = w.fs.EditText(w.ctx, tg, fs.EditRequest{OldString: "k", NewString: "e"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "e", readDisk(t, key))

	// Protected paths do not apply either.
	require.NoError(t, w.write(t, filepath.Join(w.ws, ".git", "config"), "x"))
}

// The mutation locks on the freshly resolved key: guarded writes racing through two spellings
// of one file (the file and a symlinked directory leading to it) serialize, so exactly one
// write wins the version and the others fail FS_STALE_VERSION.
func TestConfinedWritesSerializeOnTheFreshKey(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	real := filepath.Join(w.ws, "real")
	require.NoError(t, os.Mkdir(real, 0o755))
	require.NoError(t, os.Symlink(real, filepath.Join(w.ws, "alias")))
	path := filepath.Join(real, "f.txt")
	require.NoError(t, os.WriteFile(path, []byte("v0"), 0o644))
	info, err := w.fs.Stat(w.ctx, w.target(t, path))
	require.NoError(t, err)

	spellings := []string{path, filepath.Join(w.ws, "alias", "f.txt")}
	const writers = 8
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		tg := w.target(t, spellings[i%2])
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = w.fs.WriteText(w.ctx, tg, "w", fs.ReplaceIfVersion(info.Version))
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
			continue
		}
		requireCode(t, err, fs.CodeStaleVersion)
	}
	assert.Equal(t, 1, wins)
	assert.Equal(t, "w", readDisk(t, path))
	requireNoResidue(t, w.ws)
}

// The fence adds no cancellation checkpoint: a cancelled call that the fence allows fails
// exactly as the same call on fs-local does, and
// one it denies is denied.
func TestCancelledCallsFailLikeFsLocal(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	local, err := hostfs.New(hostfs.Config{Cwd: w.ws}, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	existing := filepath.Join(w.ws, "e.txt")
	require.NoError(t, os.WriteFile(existing, []byte("a"), 0o644))
	for _, path := range []string{existing, filepath.Join(w.ws, "new", "n.txt")} {
		tg := w.target(t, path)
		_, want := local.WriteText(ctx, tg, "x", nil)
		_, got := w.fs.WriteText(ctx, tg, "x", nil)
		require.Error(t, want)
		assert.Equal(t, want.Error(), got.Error(), path)
		assert.Equal(t, fs.CodeOf(want), fs.CodeOf(got))
		_, want = local.EditText(ctx, tg, fs.EditRequest{OldString: "a", NewString: "b"}, nil)
		_, got = w.fs.EditText(ctx, tg, fs.EditRequest{OldString: "a", NewString: "b"}, nil)
		assert.Equal(t, want.Error(), got.Error(), path)
	}
	assert.Equal(t, "a", readDisk(t, existing))
	_, err = w.fs.WriteText(ctx, w.target(t, filepath.Join(w.out, "x")), "x", nil)
	requireDenied(t, err, filepath.Join(w.out, "x"), sandbox.WorkspaceWrite)
}
