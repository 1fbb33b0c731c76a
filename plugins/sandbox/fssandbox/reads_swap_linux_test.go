package fssandbox_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// TestConfinedReadSwapLoop swaps a directory of the workspace for a symlink to the outside
// directory while reads and searches run: the check and the open are on the same handles, so
// the outside bytes are never read (a realpath-then-open check would read them).
func TestConfinedReadSwapLoop(t *testing.T) {
	w, _ := confinedReads(t)
	d := filepath.Join(w.ws, "d")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(d, "s.txt"), []byte("inside d\n"), 0o644))
	link := filepath.Join(w.ws, "d.link")
	require.NoError(t, os.Symlink(w.out, link))
	stop := sandboxtest.Exchanger(t, d, link)
	var attempts, served atomic.Int64
	for i := 0; i < 600; i++ {
		got, errs := readEvery(w, filepath.Join(d, "s.txt"))
		attempts.Add(5)
		require.NotContains(t, got, secret)
		if strings.Contains(got, "inside d") {
			served.Add(1)
		}
		for _, err := range errs {
			if fs.HasCode(err, fs.CodeSandboxDenied) || fs.HasCode(err, fs.CodeNotFound) {
				continue
			}
			var fe *fs.Error
			if assert.ErrorAs(t, err, &fe) {
				assert.NotContains(t, fe.Message, secret)
			}
		}
		tg, err := w.fs.Resolve(w.ctx, w.ws, fs.ResolveOptions{})
		require.NoError(t, err)
		_, _ = w.fs.Grep(w.ctx, tg, fs.GrepQuery{Pattern: "SECRET", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
			t.Errorf("grep read outside: %s", m.Path)
			return io.EOF
		})
		attempts.Add(1)
	}
	swaps := stop()
	t.Logf("%d read attempts during %d swaps, %d served from inside, 0 outside bytes", attempts.Load(), swaps, served.Load())
}
