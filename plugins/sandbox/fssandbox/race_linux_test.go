package fssandbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// swapper exchanges ws/d (a real directory) and ws/dl (a symlink to out) atomically, in a loop,
// until stopped: at every instant one of the two names is the real directory and the other
// points out of the workspace (RENAME_EXCHANGE, Linux only).
func swapper(t *testing.T, ws, out string) (stop func() int) {
	t.Helper()
	d, dl := filepath.Join(ws, "d"), filepath.Join(ws, "dl")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Symlink(out, dl))
	return exchanger(t, d, dl)
}

// exchanger is sandboxtest.Exchanger.
func exchanger(t *testing.T, a, b string) (stop func() int) {
	t.Helper()
	return sandboxtest.Exchanger(t, a, b)
}

// mutator is the write or edit under test.
type mutator func(ctx context.Context, tg fs.Target, content string) error

// hammer runs writers that each write (and edit) paths below ws/d and ws/dl, new directories
// included, while the swapper runs. It returns how many mutations succeeded and were denied.
func hammer(t *testing.T, ws string, resolve func(string) (fs.Target, error), write mutator, edit mutator) (ok, denied, other int) {
	t.Helper()
	const writers, rounds = 4, 150
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				name := []string{"d", "dl"}[r%2]
				rel := filepath.Join(name, "w"+strconv.Itoa(i)+".txt")
				if r%3 == 0 {
					rel = filepath.Join(name, "n"+strconv.Itoa(i)+"-"+strconv.Itoa(r), "deep.txt")
				}
				tg, err := resolve(filepath.Join(ws, rel))
				if err == nil {
					if r%5 == 4 && edit != nil {
						err = edit(context.Background(), tg, "payload")
					} else {
						err = write(context.Background(), tg, "payload")
					}
				}
				mu.Lock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, fs.ErrSandboxDenied) || errors.Is(err, hostfs.ErrEscape):
					denied++
				default:
					other++
					if testing.Verbose() && other <= 12 {
						t.Logf("other failure: %v", err)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ok, denied, other
}

// A racing goroutine swaps a directory of the workspace for a symlink out of it while writes and
// edits run through the sandboxed provider: never a byte lands outside the workspace.
func TestSymlinkSwapRaceNeverEscapes(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	stop := swapper(t, w.ws, w.out)
	resolve := func(p string) (fs.Target, error) { return w.fs.Resolve(w.ctx, p, fs.ResolveOptions{}) }
	write := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := w.fs.WriteText(ctx, tg, s, nil)
		return err
	}
	edit := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := w.fs.EditText(ctx, tg, fs.EditRequest{OldString: s, NewString: s + "!"}, nil)
		return err
	}
	ok, denied, other := hammer(t, w.ws, resolve, write, edit)
	swaps := stop()
	t.Logf("swaps %d: %d mutations landed, %d denied, %d failed otherwise", swaps, ok, denied, other)
	assert.Empty(t, tree(t, w.out), "nothing may land outside the workspace")
	assert.Positive(t, ok, "some mutations landed")
	assert.Positive(t, swaps)
	requireNoResidue(t, w.ws)
}

// The control: the same race against the unconfined fs-local provider, with the same
// check-then-write sequence done by hand (resolve, check the key, write). It shows what the
// race does without descriptors: the count is logged, not asserted (a leak needs the swap to hit
// the window).
func TestSymlinkSwapRaceControl(t *testing.T) {
	if testing.Short() {
		t.Skip("control run")
	}
	base := sandboxtest.OutsideDir(t)
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(out, 0o755))
	local, err := hostfs.New(hostfs.Config{Cwd: ws}, nil)
	require.NoError(t, err)
	stop := swapper(t, ws, out)
	resolve := func(p string) (fs.Target, error) {
		tg, err := local.Resolve(context.Background(), p, fs.ResolveOptions{})
		if err == nil && !within(string(tg.Key), ws) {
			return fs.Target{}, fs.ErrSandboxDenied
		}
		return tg, err
	}
	write := func(ctx context.Context, tg fs.Target, s string) error {
		_, err := local.WriteText(ctx, tg, s, nil)
		return err
	}
	ok, denied, other := hammer(t, ws, resolve, write, nil)
	stop()
	t.Logf("unconfined control: %d landed, %d refused by the check, %d failed; %d entries leaked outside",
		ok, denied, other, len(tree(t, out)))
}
