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
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// A workspace directory exchanged with .git in a loop (RENAME_EXCHANGE) while writes go below
// it: the held parent is checked against the protected entries right before publication, so a
// write whose directory is .git at that moment is refused as a protected path; every other
// outcome is a landed write. (Between that check and the rename the window stays open: the
// assertion is that the check runs, not that the race is closed.)
func TestProtectedExchangeRefusedAtPublication(t *testing.T) {
	w := newWorld(t, fs.SandboxWorkspaceWrite, nil)
	d, git := filepath.Join(w.ws, "d"), filepath.Join(w.ws, ".git")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.Mkdir(git, 0o755))
	stop := exchanger(t, d, git)
	var landed, protected, other int
	for i := range 400 {
		path := filepath.Join(d, "f"+strconv.Itoa(i))
		tg, err := w.fs.Resolve(w.ctx, path, fs.ResolveOptions{})
		if err == nil {
			_, err = w.fs.WriteText(w.ctx, tg, "x", nil, nil)
		}
		switch {
		case err == nil:
			landed++
		case errors.Is(err, fssandbox.ErrProtectedPath):
			requireDenied(t, err, path, fs.SandboxWorkspaceWrite)
			protected++
		default:
			other++
			t.Logf("other: %v", err)
		}
	}
	swaps := stop()
	t.Logf("%d swaps: %d landed, %d refused as protected, %d other", swaps, landed, protected, other)
	assert.Positive(t, protected, "the publication check refused some writes into the exchanged .git")
	assert.Positive(t, landed)
	requireNoResidue(t, w.ws)
}
