package appendfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/examples/appendfile"
	"github.com/cordon-dev/cordon/plugins/fslocal"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/fssandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// stock composes append-file with the stock plugins of the default profile's file tools:
// fs-local, the observation policy (the read gate) and tool-fs, in a session whose cwd is dir.
func stock(t *testing.T, dir string) *toolstest.Env {
	return toolstest.New(t,
		toolstest.With(fslocal.Plugin, nil),
		toolstest.With(fspolicy.Plugin, nil),
		toolstest.With(toolfs.Plugin, nil),
		toolstest.With(appendfile.Plugin, nil),
		toolstest.WithHeader(tools.Header{Cwd: dir}),
	)
}

func fileText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// A missing file is created; the append leaves it observed, so the next append goes through;
// the value and the diff meta describe the change.
func TestAppendCreatesAndAppends(t *testing.T) {
	dir := t.TempDir()
	e := stock(t, dir)
	p := filepath.Join(dir, "notes.md")

	res := e.Call("append", map[string]any{"file_path": "notes.md", "content": "- one\n"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "Appended 6 bytes to "+p, res.Text())
	res = e.Call("append", map[string]any{"file_path": "notes.md", "content": "- two\n"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "- one\n- two\n", fileText(t, p))

	meta, ok := res.Meta.(filetool.DiffMeta)
	require.True(t, ok, "%T", res.Meta)
	require.Len(t, meta.Diffs, 1)
	require.NotNil(t, meta.Diffs[0].OldText)
	assert.Equal(t, "- one", *meta.Diffs[0].OldText)
	assert.Equal(t, "- one\n- two", meta.Diffs[0].NewText)
	v, ok := res.Value.(appendfile.Value)
	require.True(t, ok, "%T", res.Value)
	assert.Equal(t, 6, v.Bytes)
}

// The read gate, as write has it: a file the model has not read is refused with the stock remedy
// and left as it was; after a read the append lands; a change on disk since the read is refused
// as stale, with the re-read remedy.
func TestAppendNeedsARead(t *testing.T) {
	dir := t.TempDir()
	e := stock(t, dir)
	p := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(p, []byte("a\n"), 0o644))

	res := e.Call("append", map[string]any{"file_path": "a.txt", "content": "b\n"})
	assert.Equal(t, "FS_NOT_OBSERVED", res.Code())
	assert.Equal(t, `Error: cannot modify "`+p+`": file has not been read — read the file, then retry`, res.Text())
	assert.Equal(t, "a\n", fileText(t, p))

	require.False(t, e.Call("read", map[string]any{"file_path": "a.txt"}).IsError)
	res = e.Call("append", map[string]any{"file_path": "a.txt", "content": "b\n"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "a\nb\n", fileText(t, p))

	require.NoError(t, os.WriteFile(p, []byte("changed\n"), 0o644))
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(p, future, future))
	res = e.Call("append", map[string]any{"file_path": "a.txt", "content": "c\n"})
	assert.Equal(t, "FS_STALE_VERSION", res.Code(), res.Text())
	first, _, _ := strings.Cut(res.Text(), "\n")
	assert.True(t, strings.HasSuffix(first, " — re-read the file, then retry"), first)
	assert.Equal(t, "changed\n", fileText(t, p))
}

// Every byte already in the file is kept: a byte order mark, CRLF line ends, and the charset the
// file is in (here UTF-16LE, from its BOM); the appended text is encoded as the file is.
func TestAppendKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	e := stock(t, dir)
	for name, tc := range map[string]struct{ before, after string }{
		"bom-crlf.txt": {"\xef\xbb\xbfa\r\nb\r\n", "\xef\xbb\xbfa\r\nb\r\nc\n"},
		"utf16.txt":    {"\xff\xfea\x00\n\x00", "\xff\xfea\x00\n\x00c\x00\n\x00"},
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(tc.before), 0o644))
		require.False(t, e.Call("read", map[string]any{"file_path": name}).IsError)
		res := e.Call("append", map[string]any{"file_path": name, "content": "c\n"})
		require.False(t, res.IsError, res.Text())
		assert.Equal(t, tc.after, fileText(t, p), name)
	}
}

// A relative file_path resolves against the calling session's cwd, not the provider's.
func TestAppendResolvesAgainstTheSessionCwd(t *testing.T) {
	dir := t.TempDir()
	e := stock(t, dir)
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	res := e.CallIn(toolstest.Session("s2", tools.Header{Cwd: sub}), "append", map[string]any{"file_path": "x.txt", "content": "x"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "x", fileText(t, filepath.Join(sub, "x.txt")))
	assert.NoFileExists(t, filepath.Join(dir, "x.txt"))
}

// sandboxed composes append-file on the sandboxed stack (sandbox-policy in workspace-write over
// ws, fs-sandbox, the observation policy, tool-fs) with approver answering escalations and a
// result budget of 80 bytes for the client "small".
func sandboxed(t *testing.T, ws string, approver tools.Approver) *toolstest.Env {
	return toolstest.New(t,
		toolstest.With(sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws}),
		toolstest.With(fssandbox.Plugin, &fssandbox.Config{Cwd: ws, DiffBasisMaxBytes: fslocal.DefaultDiffBasisMaxBytes}),
		toolstest.With(fspolicy.Plugin, nil),
		toolstest.WithApprover(approver),
		toolstest.With(toolfs.Plugin, nil),
		toolstest.With(appendfile.Plugin, &appendfile.Config{ResultBudget: filetool.DefaultBudget,
			ResultBudgetByClient: map[string]int64{"small": 80}}),
		toolstest.WithHeader(tools.Header{Cwd: ws}),
	)
}

// Under fs-sandbox the append is confined as write is: outside the workspace it is refused with
// the denial marker and the escalation hint, nothing is created; with a small result budget only
// the marker line is left; the escalation parameters are advertised, and an approved escalation
// lands for that call alone.
func TestAppendIsConfined(t *testing.T) {
	base := sandboxtest.OutsideDir(t)
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(out, 0o755))
	approver := toolstest.AllowOnce()
	e := sandboxed(t, ws, approver)

	def, ok := e.Runtime.Get("append")
	require.True(t, ok)
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(def.Parameters, &schema))
	assert.Contains(t, schema.Properties, "sandbox_permissions")
	assert.Contains(t, schema.Properties, "justification")

	outside := filepath.Join(out, "x.txt")
	marker := sandbox.DenialMarker(sandbox.WorkspaceWrite)
	res := e.Call("append", map[string]any{"file_path": outside, "content": "x\n"})
	assert.Equal(t, "FS_SANDBOX_DENIED", res.Code())
	// The contract's two lines, then the path and the writable roots (docs/sandbox.md "Denials").
	head := "Error: " + marker + "\n" + sandbox.EscalationHint(sandbox.SubjectOperation) + "\n"
	require.True(t, strings.HasPrefix(res.Text(), head), res.Text())
	assert.Contains(t, res.Text(), `cannot write "`+outside+`"`)
	assert.Contains(t, res.Text(), "\n  "+ws)
	assert.NoFileExists(t, outside)

	small := toolstest.Session("s2", tools.Header{Cwd: ws, Client: "small"})
	res = e.CallIn(small, "append", map[string]any{"file_path": outside, "content": "x\n"})
	assert.Equal(t, "FS_SANDBOX_DENIED", res.Code())
	assert.Equal(t, "Error: "+marker, res.Text(), "the result budget keeps the first line only")

	inside := e.Call("append", map[string]any{"file_path": "in.txt", "content": "i\n"})
	require.False(t, inside.IsError, inside.Text())
	assert.Empty(t, approver.Requests(), "a call inside the workspace asks nobody")

	res = e.Call("append", map[string]any{"file_path": outside, "content": "x\n",
		"sandbox_permissions": "danger-full-access", "justification": "the notes live outside"})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "x\n", fileText(t, outside))
	reqs := approver.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "append", reqs[0].ToolName)
	require.NotNil(t, reqs[0].Details)
	assert.Equal(t, outside, reqs[0].Details.Path)
	assert.Equal(t, "Appended text", reqs[0].Details.Previews[0].Label)

	res = e.Call("append", map[string]any{"file_path": filepath.Join(out, "y.txt"), "content": "y\n"})
	assert.Equal(t, "FS_SANDBOX_DENIED", res.Code(), "the grant was for one call")
}

// The configuration is checked with the kit's messages, naming the plugin.
func TestConfigValidate(t *testing.T) {
	var c appendfile.Config
	c.Defaults()
	require.NoError(t, c.Validate())
	c.ResultBudget = 0
	assert.EqualError(t, c.Validate(), "append-file: resultBudget must be a positive integer")
	c.Defaults()
	c.ResultBudgetByClient["x"] = -1
	assert.EqualError(t, c.Validate(), `append-file: resultBudgetByClient["x"] must be a positive integer`)
}

// snippet: docs/testing.md toolstest
func TestAppendAsksBeforeWritingOutside(t *testing.T) {
	ws, out := t.TempDir(), sandboxtest.OutsideDir(t)
	approver := toolstest.Reject()
	e := toolstest.New(t,
		toolstest.With(sandboxpolicy.Plugin, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: ws}),
		toolstest.With(fssandbox.Plugin, nil),
		toolstest.With(appendfile.Plugin, nil),
		toolstest.WithApprover(approver),
		toolstest.WithHeader(tools.Header{Cwd: ws, Model: "m"}),
	)
	res := e.Call("append", map[string]any{"file_path": filepath.Join(out, "a.txt"), "content": "a\n",
		"sandbox_permissions": "danger-full-access", "justification": "the notes live outside"})
	assert.True(t, res.IsError, res.Text())
	assert.Len(t, approver.Requests(), 1)
	assert.NoFileExists(t, filepath.Join(out, "a.txt"))
}

// end snippet
