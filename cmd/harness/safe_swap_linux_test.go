package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// A directory of the workspace swapped for a symlink out while reads, searches and writes run
// through it: the check and the open use the same handles, so nothing out is read or written.
func TestSafeDefaultSwapLoopRun(t *testing.T) {
	w := newEscapeWorld(t)
	d := filepath.Join(w.ws, "d")
	require.NoError(t, mkdir(d))
	writeFile(t, filepath.Join(d, "secret.txt"), "inside d\n")
	before := w.outsideState(t)
	var calls []toolCall
	for range 150 {
		calls = append(calls,
			toolCall{"read", map[string]any{"file_path": "d/secret.txt"}},
			toolCall{"grep", map[string]any{"pattern": "SECRET", "path": "d"}},
			toolCall{"glob", map[string]any{"pattern": "**/*.txt", "path": "d"}},
			toolCall{"write", map[string]any{"file_path": "d/new.txt", "content": "pwned\n"}},
		)
	}
	link := filepath.Join(w.ws, "d.link")
	require.NoError(t, os.Symlink(w.out, link))
	stop := sandboxtest.Exchanger(t, d, link)
	out, stderr, code := runHarness(t, corpusLines(t, calls), "run", "--cwd", w.ws)
	swaps := stop()
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, len(calls))
	for i, line := range lines {
		assert.NotContains(t, line, outsideSecret, "%v", calls[i])
	}
	assert.Equal(t, before, w.outsideState(t), "nothing out was written")
	t.Logf("swap loop: %d attempts during %d swaps, 0 bytes read or written outside", len(calls), swaps)
}
