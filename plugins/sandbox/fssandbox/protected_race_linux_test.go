package fssandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// A workspace directory exchanged with .git in a loop (RENAME_EXCHANGE) while writes go below
// it: the held parent is checked against the protected entries right before publication, so a
// write whose directory is .git at that moment is refused as a protected path; every other
// outcome is a landed write. (Between that check and the rename the window stays open: the
// assertion is that the check runs, not that the race is closed.)
func TestProtectedExchangeRefusedAtPublication(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	d, git := filepath.Join(w.ws, "d"), filepath.Join(w.ws, ".git")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Mkdir(git, 0o755))
	landed, atPublication, atFence := writesWhileExchanged(t, w, d, git, func(landed, atPublication, atFence int) bool {
		return landed > 0 && atPublication+atFence > 0
	})
	assert.Positive(t, atPublication+atFence, "the publication check refused some writes into the exchanged .git")
	assert.Positive(t, landed)
	requireNoResidue(t, w.ws)
}

// writesWhileExchanged writes new files below d while d is exchanged with other in a loop, at
// least 400 and then until enough holds of the counts (at most 20000), and counts the outcomes:
// landed, refused as a protected path on the held directories (the cause wraps hostfs.ErrEscape)
// and refused as one by the fence. Any other failure fails t.
func writesWhileExchanged(t *testing.T, w *world, d, other string, enough func(landed, atPublication, atFence int) bool) (landed, atPublication, atFence int) {
	t.Helper()
	stop := exchanger(t, d, other)
	for i := 0; i < 20000 && (i < 400 || !enough(landed, atPublication, atFence)); i++ {
		path := filepath.Join(d, "f"+strconv.Itoa(i))
		tg, err := w.fs.Resolve(w.ctx, path, fs.ResolveOptions{})
		if err == nil {
			_, err = w.fs.WriteText(w.ctx, tg, "x", nil)
		}
		switch {
		case err == nil:
			landed++
		case errors.Is(err, fssandbox.ErrProtectedPath):
			requireDenied(t, err, path, sandbox.WorkspaceWrite)
			if errors.Is(err, hostfs.ErrEscape) {
				atPublication++
			} else {
				atFence++
			}
		default:
			t.Errorf("%s: %v", path, err)
		}
	}
	swaps := stop()
	t.Logf("%d swaps: %d landed, %d refused at publication, %d by the fence", swaps, landed, atPublication, atFence)
	return landed, atPublication, atFence
}
