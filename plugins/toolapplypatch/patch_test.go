package toolapplypatch_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// golden renders key of texts.json beside the plugin (read from disk, as the e2e scripts read it)
// with name, value pairs (docs/texts.md).
var golden = texts.MustLoad("texts.json").MustRender

// summary is the success text: the header, then one line per file ("A path", in order).
func summary(files ...string) string {
	lines := []string{golden("apply_patch.success")}
	for _, f := range files {
		op, path, _ := strings.Cut(f, " ")
		lines = append(lines, golden("apply_patch.success.file", "op", op, "path", path))
	}
	return strings.Join(lines, "\n")
}

// chunkRefusal is the refusal of a chunk that does not match: its first line, the lines between
// (what was sought, the closest text), and the retry line.
func chunkRefusal(path string, chunk, chunks, line int, between ...string) string {
	return "Error: " + golden("apply_patch.error.chunk", "quoted_path", strconv.Quote(path), "chunk", strconv.Itoa(chunk),
		"chunks", strconv.Itoa(chunks), "line", strconv.Itoa(line)) + "\n" + strings.Join(between, "\n") + "\n" +
		golden("apply_patch.error.chunk.retry")
}

// The lines that head what a refusal sought: the @@ line, or the chunk's expected lines.
var (
	soughtContext  = golden("apply_patch.error.chunk.context")
	soughtExpected = golden("apply_patch.error.chunk.expected")
)

func newGatedPatchEnv(t *testing.T, gated bool) *patchEnv {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return newPatchEnv(t, dir, gated)
}

func (e *patchEnv) write(t *testing.T, name, content string) {
	t.Helper()
	p := filepath.Join(e.dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func (e *patchEnv) read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, name))
	require.NoError(t, err)
	return string(b)
}

func (e *patchEnv) readTool(t *testing.T, name string) {
	t.Helper()
	r := e.call("read", map[string]any{"file_path": name})
	require.False(t, r.IsError, r.Text())
}

// notRead is the refusal of a file the patch would change before it was read (docs/tool-fs.md
// "Errors of `write` and `edit`").
func notRead(p string) string {
	return `Error: cannot modify "` + p + `": file has not been read — read the file, then retry`
}

func (e *patchEnv) patch(body string) tools.Result {
	return e.call("apply_patch", map[string]any{"input": "*** Begin Patch\n" + body + "*** End Patch\n"})
}

// docs/apply_patch.md "The read gate": every file the patch updates, deletes, moves or replaces
// must have been read; a refusal of any file changes nothing.
func TestPatchReadGate(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		read []string
		who  string
	}{
		"update unread":          {"*** Update File: a.txt\n@@\n-a\n+A\n", nil, "a.txt"},
		"delete unread":          {"*** Delete File: a.txt\n", nil, "a.txt"},
		"add over unread":        {"*** Add File: a.txt\n+x\n", nil, "a.txt"},
		"move onto unread":       {"*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n", []string{"a.txt"}, "b.txt"},
		"second of three unread": {"*** Add File: new.txt\n+n\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n", []string{"a.txt"}, "b.txt"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newGatedPatchEnv(t, true)
			e.write(t, "a.txt", "a\n")
			e.write(t, "b.txt", "b\n")
			for _, n := range c.read {
				e.readTool(t, n)
			}
			r := e.patch(c.body)
			require.True(t, r.IsError)
			require.Equal(t, notRead(filepath.Join(e.dir, c.who)), r.Text())
			require.Equal(t, "FS_NOT_OBSERVED", r.Code())
			assert.Equal(t, "a\n", e.read(t, "a.txt"))
			assert.Equal(t, "b\n", e.read(t, "b.txt"))
			assert.NoFileExists(t, filepath.Join(e.dir, "new.txt"))
		})
	}
}

func TestPatchGateAllowsNewFilesAndFilesItWrote(t *testing.T) {
	e := newGatedPatchEnv(t, true)
	r := e.patch("*** Add File: src/new.txt\n+one\n")
	require.False(t, r.IsError, r.Text())
	// The patch's own result counts as seen: a second patch needs no read.
	r = e.patch("*** Update File: src/new.txt\n*** Move to: src/moved.txt\n@@\n-one\n+two\n")
	require.False(t, r.IsError, r.Text())
	r = e.patch("*** Delete File: src/moved.txt\n")
	require.False(t, r.IsError, r.Text())
	assert.NoFileExists(t, filepath.Join(e.dir, "src/moved.txt"))
}

func TestPatchStaleFile(t *testing.T) {
	e := newGatedPatchEnv(t, true)
	e.write(t, "a.txt", "a\n")
	e.write(t, "b.txt", "b\n")
	e.readTool(t, "a.txt")
	e.readTool(t, "b.txt")
	e.write(t, "b.txt", "b changed\n")
	r := e.patch("*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b changed\n+B\n")
	require.True(t, r.IsError)
	require.Equal(t, "FS_STALE_VERSION", r.Code())
	require.Equal(t, `Error: cannot edit "`+filepath.Join(e.dir, "b.txt")+`": file changed since it was read — re-read the file, then retry
What changed since the read (- as read, + now):
@@ -1,1 +1,1 @@
-b
+b changed
The lines shown with + count as read: an edit of them can be retried as they are now, without another read.`, r.Text())
	assert.Equal(t, "a\n", e.read(t, "a.txt"))
}

func TestPatchUngatedAppliesUnconditionally(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "a.txt", "a\n")
	r := e.patch("*** Add File: a.txt\n+replaced\n")
	require.False(t, r.IsError, r.Text())
	assert.Equal(t, "replaced\n", e.read(t, "a.txt"))
}

// docs/apply_patch.md "Bytes kept": CRLF, a BOM and the lines outside the chunks are kept; new
// lines take the file's line ending.
func TestPatchKeepsBytes(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "crlf.txt", "\ufeffone\r\ntwo  \r\nthree\r\n")
	e.write(t, "tail.txt", "a\nb")
	r := e.patch("*** Update File: crlf.txt\n@@\n one\n-two\n+TWO\n+2\n*** Update File: tail.txt\n@@\n-a\n+A\n")
	require.False(t, r.IsError, r.Text())
	assert.Equal(t, "\ufeffone\r\nTWO\r\n2\r\nthree\r\n", e.read(t, "crlf.txt"))
	assert.Equal(t, "A\nb", e.read(t, "tail.txt"), "a last line without a break stays so when no chunk touches it")
}

func TestPatchSuccessTextAndMeta(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "mod.txt", "x\n")
	e.write(t, "del.txt", "gone\n")
	e.write(t, "old.txt", "o\n")
	r := e.patch("*** Delete File: del.txt\n*** Update File: mod.txt\n@@\n-x\n+y\n*** Add File: add.txt\n+new\n" +
		"*** Update File: old.txt\n*** Move to: dir/new.txt\n@@\n-o\n+n\n")
	require.False(t, r.IsError, r.Text())
	require.Equal(t, summary("A add.txt", "M mod.txt", "M dir/new.txt", "D del.txt"), r.Text())
	meta, err := json.Marshal(r.Meta)
	require.NoError(t, err)
	p := strconv.Quote // the paths as the patch spells them, as edit's meta does
	require.JSONEq(t, `{"diffs":[`+
		`{"path":`+p("del.txt")+`,"oldText":"gone","newText":""},`+
		`{"path":`+p("mod.txt")+`,"oldText":"x","newText":"y"},`+
		`{"path":`+p("add.txt")+`,"oldText":null,"newText":"new"},`+
		`{"path":`+p("dir/new.txt")+`,"oldText":"o","newText":"n"}]}`, string(meta))
	assert.NoFileExists(t, filepath.Join(e.dir, "old.txt"))
}

func TestPatchSuccessTextFitsTheBudget(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	var b strings.Builder
	const files = 1200
	for i := range files {
		b.WriteString("*** Add File: " + strings.Repeat("d", 30) + "/f" + strconv.Itoa(i) + ".txt\n+x\n")
	}
	r := e.patch(b.String())
	require.False(t, r.IsError, r.Text())
	text := r.Text()
	require.LessOrEqual(t, len(text), filetool.DefaultBudget)
	require.True(t, strings.HasPrefix(text, summary("A ")))
	last := text[strings.LastIndexByte(text, '\n')+1:]
	listed := strings.Count(text, "\nA ")
	require.Equal(t, golden("apply_patch.success.more", "n", strconv.Itoa(files-listed)), last)
}

// docs/apply_patch.md "Errors": a chunk that does not match names the file, the chunk and the
// lines it looked for, and changes nothing.
func TestPatchChunkNotFound(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "a.txt", "one\ntwo\n")
	e.write(t, "b.txt", "b\n")
	r := e.patch("*** Update File: b.txt\n@@\n-b\n+B\n*** Update File: a.txt\n@@\n one\n-TWO\n+2\n@@ nowhere\n-x\n")
	require.True(t, r.IsError)
	require.Equal(t, "FS_EDIT_NOT_FOUND", r.Code())
	require.Equal(t, chunkRefusal(filepath.Join(e.dir, "a.txt"), 1, 2, 7, soughtExpected, "one", "TWO"), r.Text())
	assert.Equal(t, "b\n", e.read(t, "b.txt"))

	e.readTool(t, "a.txt")
	r = e.patch("*** Update File: a.txt\n@@ nowhere\n-one\n")
	require.Equal(t, chunkRefusal(filepath.Join(e.dir, "a.txt"), 1, 1, 3, soughtContext, "nowhere"), r.Text())
}

// docs/apply_patch.md "Errors": every line of the patch an error repeats is bounded, the cut
// marked; the first line keeps its sentence and the guidance its place.
func TestPatchErrorsBoundTheEcho(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "a.txt", "one\n")
	e.readTool(t, "a.txt")
	long := strings.Repeat("x", 1<<20)
	r := e.patch("*** Update File: a.txt\n@@\n-" + long + "\n")
	require.True(t, r.IsError)
	require.Equal(t, "FS_EDIT_NOT_FOUND", r.Code())
	require.Equal(t, chunkRefusal(filepath.Join(e.dir, "a.txt"), 1, 1, 3, soughtExpected, strings.Repeat("x", 1000)+"[cut: 1047576 more bytes]"), r.Text())

	r = e.patch("*** Update File: a.txt\n@@ " + long + "\n-one\n")
	require.Equal(t, chunkRefusal(filepath.Join(e.dir, "a.txt"), 1, 1, 3, soughtContext, strings.Repeat("x", 1000)+"[cut: 1047576 more bytes]"), r.Text())

	r = e.patch(long + "\n")
	require.True(t, r.IsError)
	require.Equal(t, "Error: invalid patch: line 2: '"+strings.Repeat("x", 200)+"[cut: 1048376 more bytes]' is not a valid file header; valid headers are '*** Add File: <path>', '*** Delete File: <path>' and '*** Update File: <path>'", r.Text())
}

func TestPatchInvalidInput(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	r := e.call("apply_patch", map[string]any{"input": "*** Begin Patch\n*** End Patch"})
	require.Equal(t, "Error: "+golden("apply_patch.error.empty"), r.Text())
	r = e.call("apply_patch", map[string]any{"input": "hello"})
	require.Equal(t, "Error: invalid patch: the first line of the patch must be '*** Begin Patch'", r.Text())
	r = e.call("apply_patch", map[string]any{})
	require.True(t, r.IsError)
	require.Equal(t, "INVALID_ARGS", r.Code())
	r = e.patch("*** Add File: a.txt\n+1\n*** Delete File: a.txt\n")
	require.Equal(t, `Error: cannot patch "`+filepath.Join(e.dir, "a.txt")+`": the patch changes it more than once`, r.Text())
	r = e.patch("*** Add File: dir/\n+1\n")
	require.True(t, r.IsError)
	assert.NoDirExists(t, filepath.Join(e.dir, "dir"))
}

// touch gives name a new mtime, bytes and inode unchanged: a new version only.
func (e *patchEnv) touch(t *testing.T, name string) {
	t.Helper()
	later := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(filepath.Join(e.dir, name), later, later))
}

// docs/apply_patch.md "The read gate": under the policy's content staleness a file whose version
// moved with its bytes unchanged is not stale, for an update, a delete and an add over a file.
func TestPatchTouchedFilesAreNotStale(t *testing.T) {
	e := newGatedPatchEnv(t, true)
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		e.write(t, n, n+"\n")
		e.readTool(t, n)
		e.touch(t, n)
	}
	r := e.patch("*** Update File: a.txt\n@@\n-a.txt\n+A\n*** Delete File: b.txt\n*** Add File: c.txt\n+C\n")
	require.False(t, r.IsError, r.Text())
	assert.Equal(t, "A\n", e.read(t, "a.txt"))
	assert.NoFileExists(t, filepath.Join(e.dir, "b.txt"))
	assert.Equal(t, "C\n", e.read(t, "c.txt"))
}

// A real change since the read is refused with what changed, and the set changes nothing.
func TestPatchChangedContentStaysStale(t *testing.T) {
	for name, c := range map[string]struct{ body, first string }{
		"update":   {"*** Update File: b.txt\n@@\n-b\n+B\n", `cannot edit "%s": file changed since it was read — re-read the file, then retry`},
		"delete":   {"*** Delete File: b.txt\n", `cannot delete "%s": file changed since it was read — re-read the file, then retry`},
		"add over": {"*** Add File: b.txt\n+B\n", `cannot write "%s": file changed since it was read — re-read the file, then retry`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newGatedPatchEnv(t, true)
			e.write(t, "a.txt", "a\n")
			e.write(t, "b.txt", "b\nkeep\n")
			e.readTool(t, "a.txt")
			e.readTool(t, "b.txt")
			e.write(t, "b.txt", "b\nkept\n")
			r := e.patch("*** Update File: a.txt\n@@\n-a\n+A\n" + c.body)
			require.True(t, r.IsError)
			assert.Equal(t, "FS_STALE_VERSION", r.Code())
			lines := strings.Split(r.Text(), "\n")
			assert.Equal(t, "Error: "+strings.Replace(c.first, "%s", filepath.Join(e.dir, "b.txt"), 1), lines[0])
			assert.Contains(t, r.Text(), "-keep\n+kept")
			assert.Equal(t, "a\n", e.read(t, "a.txt"))
			assert.Equal(t, "b\nkept\n", e.read(t, "b.txt"))
		})
	}
}

// docs/apply_patch.md "Errors": under the read gate, a delete of a directory and an update or
// delete of a missing file get their own refusals, not "has not been read" (which no read could
// ever satisfy).
func TestPatchGateGivesTheDocumentedRefusals(t *testing.T) {
	for name, c := range map[string]struct{ body, want, code string }{
		"delete of a directory": {"*** Delete File: d\n", `Error: cannot delete "%s": not a regular file`, "FS_NOT_REGULAR_FILE"},
		"update of a missing":   {"*** Update File: gone.txt\n@@\n-a\n+A\n", `Error: cannot update "%s": file not found`, "FS_NOT_FOUND"},
		"delete of a missing":   {"*** Delete File: gone.txt\n", `Error: cannot delete "%s": file not found`, "FS_NOT_FOUND"},
		"update of a directory": {"*** Update File: d\n@@\n-a\n+A\n", `Error: cannot edit "%s": not a regular file`, "FS_NOT_REGULAR_FILE"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newGatedPatchEnv(t, true)
			e.write(t, "d/inside.txt", "i\n")
			r := e.patch(c.body)
			require.True(t, r.IsError)
			p := filepath.Join(e.dir, strings.Fields(c.body)[3])
			require.Equal(t, strings.Replace(c.want, "%s", p, 1), r.Text())
			require.Equal(t, c.code, r.Code())
			require.Equal(t, "i\n", e.read(t, "d/inside.txt"))
		})
	}
}

// docs/apply_patch.md "Errors": a Move to line without a destination is a parse error, never an
// update in place.
func TestPatchMoveToWithoutDestination(t *testing.T) {
	for _, line := range []string{"*** Move to: ", "*** Move to:    "} {
		e := newGatedPatchEnv(t, false)
		e.write(t, "a.txt", "a\n")
		r := e.patch("*** Update File: a.txt\n" + line + "\n@@\n-a\n+A\n")
		require.True(t, r.IsError)
		require.Equal(t, "Error: invalid patch: line 3: the Move to line for 'a.txt' names no destination", r.Text())
		require.Equal(t, "a\n", e.read(t, "a.txt"))
	}
}

// docs/apply_patch.md "Symlinks": a delete, or a move, of a path that is a symlink removes the link
// itself, as git and Codex do; the file it points to is never touched (before: the target was
// deleted and a dangling link left).
func TestPatchDeleteAndMoveOfASymlinkActOnTheLink(t *testing.T) {
	for name, c := range map[string]struct{ body, moved string }{
		"delete": {"*** Delete File: link.txt\n", ""},
		"move":   {"*** Update File: link.txt\n*** Move to: moved.txt\n@@\n-target\n+changed\n", "moved.txt"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newGatedPatchEnv(t, true)
			e.write(t, "real/target.txt", "target\n")
			link := filepath.Join(e.dir, "link.txt")
			require.NoError(t, os.Symlink(filepath.Join("real", "target.txt"), link))
			e.readTool(t, "link.txt")
			r := e.patch(c.body)
			require.False(t, r.IsError, r.Text())
			assert.Equal(t, "target\n", e.read(t, "real/target.txt"), "the link's target is never touched")
			_, err := os.Lstat(link)
			assert.True(t, os.IsNotExist(err), "the link itself is gone: %v", err)
			if c.moved != "" {
				info, err := os.Lstat(filepath.Join(e.dir, c.moved))
				require.NoError(t, err)
				assert.True(t, info.Mode().IsRegular())
				assert.Equal(t, "changed\n", e.read(t, c.moved))
			}
		})
	}
}

// A chunk that does not match says where the closest text of the file is, as edit says it
// (docs/apply_patch.md "Errors"), and asks for no re-read.
func TestPatchChunkNotFoundShowsTheClosestText(t *testing.T) {
	e := newGatedPatchEnv(t, false)
	e.write(t, "n.go", "func f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n")
	r := e.patch("*** Update File: n.go\n@@\n \tif err != nil {\n \n-\t\treturn err\n+\t\treturn fmt.Errorf(\"f: %w\", err)\n")
	require.True(t, r.IsError)
	require.Equal(t, "FS_EDIT_NOT_FOUND", r.Code())
	require.Equal(t, chunkRefusal(filepath.Join(e.dir, "n.go"), 1, 1, 3, soughtExpected, `	if err != nil {

		return err
The closest text is at lines 2-3; old_string differs there in blank lines (the file has fewer):
2: 	if err != nil {
3: 		return err
old_string has 1 blank line that the file does not have there`), r.Text())
}
