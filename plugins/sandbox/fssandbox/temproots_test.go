package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
)

// TMP=/ made every file writable under workspace-write. Only $TMPDIR names a temp root now, and
// a temp root that is /, the home or an ancestor of the home is ignored with exactly one warning
// (per provider and value), however many writes meet it.
func TestUnsafeTempRootIsIgnoredWithOneWarning(t *testing.T) {
	w := newWorld(t, sandbox.WorkspaceWrite, nil)
	core, logs := observer.New(zapcore.WarnLevel)
	p, err := fssandbox.New(fssandbox.Config{Cwd: w.ws}, w.policy, zap.New(core))
	require.NoError(t, err)
	write := func(path string) error {
		tg, err := p.Resolve(w.ctx, path, fs.ResolveOptions{})
		require.NoError(t, err)
		_, err = p.WriteText(w.ctx, tg, "x", nil)
		return err
	}
	t.Setenv("TMPDIR", "")
	for _, v := range []string{"TMP", "TEMP"} {
		t.Setenv(v, "/")
		path := filepath.Join(w.out, v+".txt")
		requireDenied(t, write(path), path, sandbox.WorkspaceWrite)
		t.Setenv(v, "")
	}
	assert.Zero(t, logs.Len(), "$TMP and $TEMP are not read at all")

	home := filepath.Join(w.base, "home", "u")
	require.NoError(t, os.MkdirAll(home, 0o755))
	t.Setenv("HOME", home)
	for _, tmpdir := range []string{"/", home, filepath.Dir(home)} {
		t.Setenv("TMPDIR", tmpdir)
		for i := range 3 {
			path := filepath.Join(w.out, "x.txt")
			requireDenied(t, write(path), path, sandbox.WorkspaceWrite)
			require.NoError(t, write(filepath.Join(w.ws, "ok.txt")), "the workspace stays writable (%d)", i)
		}
		warned := logs.FilterMessage("ignoring an unsafe temp root: it would make the files it holds writable under workspace-write").FilterField(zap.String("path", tmpdir)).Len()
		assert.Equal(t, 1, warned, "TMPDIR=%s: exactly one warning", tmpdir)
	}
	assert.Equal(t, 3, logs.Len())
	entry := logs.All()[0]
	assert.Equal(t, map[string]any{"variable": "$TMPDIR", "path": "/", "reason": "it is the file system root"}, entry.ContextMap())
	_, err = os.Stat(filepath.Join(w.out, "x.txt"))
	assert.True(t, os.IsNotExist(err))
}
