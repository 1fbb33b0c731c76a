package fshistory_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
)

// Undo restores any bytes, not only text: NULs, invalid UTF-8, a setgid bit kept by the
// replacement. (Without the observation policy a write may replace a file no tool can read.)
func TestUndoRestoresBytesThatAreNotText(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	root := composeRecorder(t, ws, filepath.Join(t.TempDir(), "history"))
	lg, ok := history.Service.Get(root)
	require.True(t, ok)
	p := filepath.Join(ws, "blob.bin")
	original := []byte("\x00\xff\xfe binary \r\r\n\x80")
	require.NoError(t, os.WriteFile(p, original, 0o600))
	require.NoError(t, os.Chmod(p, 0o750|os.ModeSetgid))
	ctx := history.WithActor(context.Background(), history.Actor{Session: "s", Tool: "write"})
	tg, err := lg.FS.Resolve(ctx, p, fs.ResolveOptions{})
	require.NoError(t, err)
	_, err = lg.FS.WriteText(ctx, tg, "text now\n", nil)
	require.NoError(t, err)

	u, err := history.Undo(ctx, lg.FS, lg.Store, history.Selector{Target: tg, Session: "s"})
	require.NoError(t, err)
	assert.Equal(t, "write", u.Change.Tool)
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, original, got)
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o750)|os.ModeSetgid, fi.Mode()&(os.ModePerm|os.ModeSetgid))
}
