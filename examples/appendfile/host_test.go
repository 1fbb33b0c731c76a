package appendfile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/examples/appendfile"
)

// TestServedByTheStockHost runs the command line of cmd/harness-append (the stock harness plus
// append-file) in process: the embedded profile ends with append-file, and the `run` protocol
// serves append beside the stock tools, read gate included.
func TestServedByTheStockHost(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	work := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644))
	host := func(stdin string, args ...string) string {
		var stdout, stderr bytes.Buffer
		code := app.MainContext(context.Background(), args, app.WithName("harness-append"),
			app.WithModules(appendfile.Module), app.WithEntries(app.MustEntry(appendfile.ID, nil)),
			app.WithIO(strings.NewReader(stdin), &stdout, &stderr))
		require.Equal(t, 0, code, stderr.String())
		return stdout.String()
	}

	assert.Contains(t, host("", "config", "--cwd", work), "id: append-file # active")
	out := host(`{"id":1,"tool":"append","args":{"file_path":"a.txt","content":"b\n"}}`+"\n"+
		`{"id":2,"tool":"read","args":{"file_path":"a.txt"}}`+"\n"+
		`{"id":3,"tool":"append","args":{"file_path":"a.txt","content":"b\n"}}`+"\n", "run", "--cwd", work)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 3, out)
	type line struct {
		IsError bool            `json:"isError"`
		Text    string          `json:"text"`
		Code    *string         `json:"code"`
		Meta    json.RawMessage `json:"meta"`
	}
	var first, third line
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &third))
	require.NotNil(t, first.Code, lines[0])
	assert.Equal(t, "FS_NOT_OBSERVED", *first.Code, "an unread file is refused")
	assert.False(t, third.IsError, lines[2])
	assert.Equal(t, "Appended 2 bytes to "+filepath.Join(work, "a.txt"), third.Text)
	assert.JSONEq(t, `{"diffs":[{"path":"a.txt","oldText":"a","newText":"a\nb"}]}`, string(third.Meta))
	b, err := os.ReadFile(filepath.Join(work, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "a\nb\n", string(b))
}
