package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	imagepng "image/png"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
)

// lockedBuffer collects the server's stderr while the client runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serve starts `harness serve args...` and connects the Go SDK client to it over stdio.
func serve(t *testing.T, args ...string) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	return serveAs(t, "harness-test", args...)
}

// serveAs is serve with a client that names itself client in its clientInfo.
func serveAs(t *testing.T, client string, args ...string) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	return serveAtVersion(t, client, "", args...)
}

// serveAtVersion is serveAs at a protocol version ("": the client's latest).
func serveAtVersion(t *testing.T, client, version string, args ...string) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(harnessBin, append([]string{"serve"}, args...)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: client, Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err, stderr.String())
	t.Cleanup(func() { _ = cs.Close() })
	return cs, stderr
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func envelope(path, body string) string { return fsText("read.envelope", "path", path, "body", body) }

// fsText renders key of tool-fs's texts.json, the file the plugin embeds (docs/texts.md), with
// name, value pairs.
var fsText = texts.MustLoad("../../plugins/toolfs/texts.json").MustRender

// endOf is the footer of a read that reaches the end of a file of total lines.
func endOf(total int) string { return fsText("read.footer.end", "total", strconv.Itoa(total)) }

// linesText spells a number of lines as write's counts do.
func linesText(n int) string {
	if n == 1 {
		return fsText("lines.one")
	}
	return fsText("lines.many", "n", strconv.Itoa(n))
}

// created and updated are write's texts for a new file of n lines and for before lines replaced
// by n; edited is edit's.
func created(path string, n int) string {
	return fsText("write.success", "envelope", envelope(path, fsText("write.created")), "counts", fsText("write.counts.new", "lines", linesText(n)))
}

func updated(path string, n, before int) string {
	return fsText("write.success", "envelope", envelope(path, fsText("write.updated")),
		"counts", fsText("write.counts.replaced", "lines", linesText(n), "before", linesText(before)))
}

func edited(path string) string { return fsText("edit.success", "path", path) }

// escalationProperties are the two properties a confining composition (the default) adds to the
// schemas of write, edit and apply_patch (docs/tool-fs.md "Sandbox escalation").
const escalationProperties = `,"sandbox_permissions":{"type":"string","enum":["workspace-write","danger-full-access"],"description":"The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval."},"justification":{"type":"string","description":"Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access."}}`

// wantSchema is the schema of tool, under a confining composition (confined) or not.
func wantSchema(tool string, confined bool) string {
	s := wantSchemas[tool]
	if confined && (tool == "write" || tool == "edit" || tool == "apply_patch" || tool == "notebook_edit") {
		s = strings.Replace(s, `},"required":`, escalationProperties+`,"required":`, 1)
	}
	return s
}

// The tools' schemas, as the model sees them (docs/tool-fs.md, each tool's section), under a
// composition that does not confine (wantSchema adds what a confining one advertises).
var wantSchemas = map[string]string{
	"read":  `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to read. Absolute, or relative to the session's working directory."},"offset":{"type":"number","description":"1-based first line to return. Defaults to 1."},"limit":{"type":"number","description":"Maximum number of lines to return. Defaults to 2000."}},"required":["file_path"]}`,
	"write": `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to write. Absolute, or relative to the session's working directory."},"content":{"type":"string","description":"Full UTF-8 text content to write."}},"required":["file_path","content"]}`,
	"edit":  `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to edit. Absolute, or relative to the session's working directory."},"old_string":{"type":"string","description":"Literal text to replace. Must match exactly."},"new_string":{"type":"string","description":"Literal replacement text. Use an empty string to delete the match."},"replace_all":{"type":"boolean","description":"Replace all matches. Defaults to false; when false, old_string must appear exactly once."}},"required":["file_path","old_string","new_string"]}`,
	// docs/history.md "The undo tool"
	"undo": `{"type":"object","properties":{"file_path":{"type":"string","description":"The file to restore. Absolute, or relative to the session's working directory."}},"required":["file_path"]}`,
	// docs/tool-fs.md "read_image"
	"read_image": `{"type":"object","properties":{"file_path":{"type":"string","description":"The image file. Absolute, or relative to the session's working directory."}},"required":["file_path"]}`,
	"glob":       `{"type":"object","properties":{"pattern":{"type":"string","description":"Glob pattern to match file paths against (e.g. \"**/*.ts\", \"src/**/*.test.js\"). A pattern with no \"/\" matches file names at any depth, so \"*.ts\" searches the whole tree; include a \"/\" to anchor the pattern to the search directory."},"path":{"type":"string","description":"The directory to search; defaults to the session's working directory. Absolute, or relative to the session's working directory."}},"required":["pattern"]}`,
	// docs/notebooks.md "notebook_edit"
	"notebook_edit": `{"type":"object","properties":{"notebook_path":{"type":"string","description":"The notebook (.ipynb) to edit. Absolute, or relative to the session's working directory."},"cell_id":{"type":"string","description":"The id of the cell to replace or delete, or of the cell after which to insert, as read shows it. Omit it to insert at the start of the notebook."},"new_source":{"type":"string","description":"The new source of the cell. Not used by delete."},"cell_type":{"type":"string","enum":["code","markdown","raw"],"description":"The cell's type. Defaults to the cell's own type for replace and to code for insert."},"edit_mode":{"type":"string","enum":["replace","insert","delete"],"description":"replace (the default) changes the cell's source, insert adds a new cell after cell_id, delete removes the cell."}},"required":["notebook_path"]}`,
	// docs/apply_patch.md
	"apply_patch": `{"type":"object","properties":{"input":{"type":"string","description":"The entire patch, from *** Begin Patch to *** End Patch."}},"required":["input"]}`,
	"grep":        `{"type":"object","properties":{"pattern":{"type":"string","description":"Regular expression to search for (RE2 syntax)."},"path":{"type":"string","description":"The file or directory to search; defaults to the session's working directory. Absolute, or relative to the session's working directory."},"include":{"type":"string","description":"One glob filter for which files to search (e.g. \"*.ts\", \"*.{js,jsx}\"). Not a list; negation is not supported."}},"required":["pattern"]}`,
}

func checkToolList(t *testing.T, cs *mcp.ClientSession, confined bool, want ...string) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	names := make([]string, len(res.Tools))
	for i, tool := range res.Tools {
		names[i] = tool.Name
		assert.Nil(t, tool.OutputSchema, "%s: no output schema without --structured-content", tool.Name)
		schema, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		assert.JSONEq(t, wantSchema(tool.Name, confined), string(schema), tool.Name)
		require.NotNil(t, tool.Annotations, tool.Name)
		if tool.Name == "read" || tool.Name == "read_image" || tool.Name == "glob" || tool.Name == "grep" {
			assert.True(t, tool.Annotations.ReadOnlyHint, tool.Name)
		} else {
			assert.False(t, tool.Annotations.ReadOnlyHint)
			require.NotNil(t, tool.Annotations.DestructiveHint)
			assert.True(t, *tool.Annotations.DestructiveHint, tool.Name)
		}
	}
	// The SDK lists tools sorted by name (it pages by name); registration order is not kept.
	assert.ElementsMatch(t, want, names)
}

func TestServeFlowWithObservationPolicy(t *testing.T) {
	dir := realTemp(t)
	file := filepath.Join(dir, "notes.txt")
	writeFile(t, file, "hello\nworld\n")
	cs, stderr := serve(t, "--cwd", dir)

	assert.Contains(t, cs.InitializeResult().Instructions, "Use the read tool — not shell commands like cat — to inspect text files.")
	checkToolList(t, cs, true, "read", "write", "edit", "glob", "grep", "apply_patch", "notebook_edit", "read_image", "undo")

	res := call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "clobber\n"})
	assert.True(t, res.IsError)
	assert.Equal(t, `Error: cannot modify "`+file+`": file has not been read — read the file, then retry`, text(res))
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_NOT_OBSERVED"}, res.Meta["error"])
	assert.Nil(t, res.StructuredContent)
	assert.Equal(t, "hello\nworld\n", readFile(t, file), "the refused overwrite left the file alone")

	res = call(t, cs, "read", map[string]any{"file_path": "notes.txt"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, envelope(file, "1: hello\n2: world\n\n"+endOf(2)), text(res))
	assert.Nil(t, res.StructuredContent, "by default results carry the content blocks only")
	assert.Nil(t, res.Meta["error"])

	res = call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "one\ntwo\nthree\n"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, updated(file, 3, 2), text(res))
	assert.Equal(t, "one\ntwo\nthree\n", readFile(t, file))

	res = call(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "two", "new_string": "TWO"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, edited(file), text(res))
	assert.Nil(t, res.StructuredContent)

	writeFile(t, file, "one\nTWO\nthree\nfour (external)\n")
	res = call(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "one", "new_string": "ONE"})
	assert.True(t, res.IsError)
	assert.Equal(t, `Error: cannot edit "`+file+`": file changed since it was read — re-read the file, then retry`+
		"\nWhat changed since the read (- as read, + now):\n@@ -2,2 +2,3 @@\n TWO\n three\n+four (external)\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.", text(res))
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_STALE_VERSION"}, res.Meta["error"])
	assert.Equal(t, "one\nTWO\nthree\nfour (external)\n", readFile(t, file))

	// read_image: the image block reaches the client as MCP image content; the store is the default
	// composition's attachment-local.
	img := filepath.Join(dir, "pixel.png")
	var png bytes.Buffer
	require.NoError(t, imagepng.Encode(&png, image.NewGray(image.Rect(0, 0, 3, 2))))
	writeFile(t, img, png.String())
	res = call(t, cs, "read_image", map[string]any{"file_path": "pixel.png"})
	require.False(t, res.IsError, text(res))
	require.Len(t, res.Content, 2)
	ic, ok := res.Content[1].(*mcp.ImageContent)
	require.True(t, ok, "the second block is an image: %#v", res.Content[1])
	assert.Equal(t, "image/png", ic.MIMEType)
	cfg, err := imagepng.DecodeConfig(bytes.NewReader(ic.Data))
	require.NoError(t, err, "the block carries the stored PNG")
	assert.Equal(t, [2]int{3, 2}, [2]int{cfg.Width, cfg.Height})
	assert.Nil(t, res.StructuredContent)

	require.NoError(t, cs.Close())
	log := stderr.String()
	assert.Contains(t, log, "ready: serving MCP on stdio")
	assert.Contains(t, log, `"config": "profile default"`)
	assert.Contains(t, log, `"tools": ["read", "write", "edit", "glob", "grep", "apply_patch", "notebook_edit", "read_image", "undo"]`)
}

// serverInfo.version is the module's version as the build recorded it (go version -m), not "dev",
// when the build recorded one.
func TestServeReportsTheBuildVersion(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", harnessBin).Output()
	require.NoError(t, err)
	want := "dev"
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "mod" && f[1] == "github.com/cordon-dev/cordon" && f[2] != "(devel)" {
			want = f[2]
		}
	}
	cs, _ := serve(t, "--cwd", realTemp(t))
	info := cs.InitializeResult().ServerInfo
	assert.Equal(t, "cordon", info.Name)
	assert.Equal(t, want, info.Version)
}

// With --structured-content the tools list their output schemas and every success carries the
// canonical value as structuredContent, beside the same content blocks.
func TestServeStructuredContent(t *testing.T) {
	dir := realTemp(t)
	file := filepath.Join(dir, "notes.txt")
	writeFile(t, file, "hello\nworld\n")
	cs, _ := serve(t, "--cwd", dir, "--structured-content")

	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tool := range list.Tools {
		schema, _ := tool.OutputSchema.(map[string]any)
		assert.Equal(t, "object", schema["type"], "%s lists its output schema", tool.Name)
	}

	res := call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "clobber\n"})
	assert.True(t, res.IsError)
	assert.Nil(t, res.StructuredContent, "a failure carries no value")
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_NOT_OBSERVED"}, res.Meta["error"])

	res = call(t, cs, "read", map[string]any{"file_path": "notes.txt"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, envelope(file, "1: hello\n2: world\n\n"+endOf(2)), text(res))
	assert.Equal(t, map[string]any{
		"path": file, "offset": float64(1), "totalLines": float64(2),
		"lines": []any{map[string]any{"number": float64(1), "text": "hello"}, map[string]any{"number": float64(2), "text": "world"}},
	}, res.StructuredContent)

	res = call(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "world", "new_string": "there"})
	require.False(t, res.IsError, text(res))
	assert.Equal(t, edited(file), text(res))
	assert.Equal(t, map[string]any{"path": file, "before": "hello\nworld\n", "after": "hello\nthere\n"}, res.StructuredContent)

	img := filepath.Join(dir, "pixel.png")
	var png bytes.Buffer
	require.NoError(t, imagepng.Encode(&png, image.NewGray(image.Rect(0, 0, 3, 2))))
	writeFile(t, img, png.String())
	res = call(t, cs, "read_image", map[string]any{"file_path": "pixel.png"})
	require.False(t, res.IsError, text(res))
	require.Len(t, res.Content, 2)
	sc, _ := res.StructuredContent.(map[string]any)
	require.NotNil(t, sc)
	assert.Equal(t, img, sc["path"])
	im, _ := sc["image"].(map[string]any)
	assert.Equal(t, "image/png", im["mediaType"])
	assert.Equal(t, float64(3), im["width"])
	assert.Equal(t, float64(2), im["height"])
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, im["attachmentId"])
}

func TestServeFlowWithoutObservationPolicy(t *testing.T) {
	dir := realTemp(t)
	file := filepath.Join(dir, "notes.txt")
	writeFile(t, file, "hello\nworld\n")
	cs, _ := serve(t, "--config", bareConfig(t, dir))
	checkToolList(t, cs, false, "read", "write", "edit")

	res := call(t, cs, "write", map[string]any{"file_path": "notes.txt", "content": "clobber\n"})
	require.False(t, res.IsError, "without the policy an unread overwrite is unconditional: %s", text(res))
	assert.Equal(t, updated(file, 1, 2), text(res))
	assert.Equal(t, "clobber\n", readFile(t, file))

	writeFile(t, file, "clobber\nexternal\n")
	res = call(t, cs, "edit", map[string]any{"file_path": "notes.txt", "old_string": "external", "new_string": "EXT"})
	require.False(t, res.IsError, "an edit after an external change is unconditional: %s", text(res))
	assert.Equal(t, "clobber\nEXT\n", readFile(t, file))

	res = call(t, cs, "read", map[string]any{"file_path": "missing.txt"})
	assert.True(t, res.IsError)
	assert.Equal(t, `Error: cannot read "`+filepath.Join(dir, "missing.txt")+`": not found`, text(res))
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_NOT_FOUND"}, res.Meta["error"])
}

func TestServeConnectionsAreSessions(t *testing.T) {
	dir := realTemp(t)
	file := filepath.Join(dir, "a.txt")
	writeFile(t, file, "a\n")
	// Each serve process is one connection and so one session: a read in one does not let the other
	// overwrite.
	first, _ := serve(t, "--cwd", dir)
	second, _ := serve(t, "--cwd", dir)
	require.False(t, call(t, first, "read", map[string]any{"file_path": "a.txt"}).IsError)
	res := call(t, second, "write", map[string]any{"file_path": "a.txt", "content": "b\n"})
	assert.True(t, res.IsError)
	assert.Equal(t, map[string]any{"name": "FsError", "code": "FS_NOT_OBSERVED"}, res.Meta["error"])
	assert.False(t, call(t, first, "write", map[string]any{"file_path": "a.txt", "content": "b\n"}).IsError)
}

// BenchmarkServeStartup measures spawning `harness serve` until initialize and tools/list are
// answered, with the embedded default composition and with the four text plugins only.
func BenchmarkServeStartup(b *testing.B) {
	dir := b.TempDir()
	textOnly := filepath.Join(dir, "text.yaml")
	writeFile(b, textOnly, "plugins: [{name: fs-local}, {name: fs-observation-policy}, {name: tools}, {name: tool-fs}]\n")
	for _, bc := range []struct {
		name string
		args []string
	}{{"default", nil}, {"text-only", []string{"--config", textOnly}}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(harnessBin, append([]string{"serve", "--cwd", dir, "--log-level", "error"}, bc.args...)...)
				client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
				cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cs.ListTools(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = cs.Close()
				b.StartTimer()
			}
		})
	}
}
