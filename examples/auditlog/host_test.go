package auditlog_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCustomHost builds cmd/harness-audit (the stock harness plus audit-log) and drives its `run`
// command: the embedded profile now ends with audit-log, and every call lands in the audit file.
func TestCustomHost(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "harness-audit")
	build := exec.Command("go", "build", "-o", bin, "./cmd/harness-audit")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))

	work := filepath.Join(tmp, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	state := filepath.Join(tmp, "state")
	host := func(stdin string, args ...string) (string, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), stderr.String())
		return stdout.String(), stderr.String()
	}

	plugins, _ := host("", "plugins")
	assert.Contains(t, plugins, "audit-log")
	cfg, _ := host("", "config", "--cwd", work)
	assert.Contains(t, cfg, "id: audit-log # active")

	results, stderr := host(`{"id":1,"tool":"read","args":{"file_path":"a.txt"}}`+"\n"+
		`{"id":2,"tool":"write","args":{"file_path":"a.txt","content":"b\n"},"session":"s2"}`+"\n", "run", "--cwd", work)
	assert.Equal(t, 2, strings.Count(results, "\n"))
	assert.Contains(t, stderr, "harness-audit")

	recs := readRecords(t, filepath.Join(state, "cordon", "audit.jsonl"))
	require.Len(t, recs, 2, "the async listener is drained before the host exits")
	assert.Equal(t, "read", recs[0]["tool"])
	assert.Equal(t, "default", recs[0]["session"])
	assert.Equal(t, false, recs[0]["isError"])
	assert.Equal(t, "write", recs[1]["tool"])
	assert.Equal(t, "s2", recs[1]["session"])
	assert.Equal(t, "FS_NOT_OBSERVED", recs[1]["code"])
}
