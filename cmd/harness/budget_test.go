package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestServeBudgetFollowsClientInfo: the default read of a 2,000-line file reaches every client
// whole (at most 36,000 bytes of text, the footer saying where to continue), and a client that
// names itself "claude-code" gets its wider budget (at most 48,000 bytes).
func TestServeBudgetFollowsClientInfo(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		b.WriteString("\tif err := step(ctx, " + strconv.Itoa(i) + "); err != nil { return err }\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.go"), []byte(b.String()), 0o644))
	sizes := map[string]int{}
	for _, client := range []string{"harness-test", "claude-code"} {
		cs, stderr := serveAs(t, client, "--cwd", dir)
		res := call(t, cs, "read", map[string]any{"file_path": "f.go"})
		require.False(t, res.IsError, stderr.String())
		out := text(res)
		sizes[client] = len(out)
		require.Contains(t, out[len(out)-80:], " to continue.)\n</content>")
	}
	require.LessOrEqual(t, sizes["harness-test"], 36000)
	require.Greater(t, sizes["harness-test"], 35000)
	require.LessOrEqual(t, sizes["claude-code"], 48000)
	require.Greater(t, sizes["claude-code"], 47000)
}
