package toolnotebook_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/toolnotebook"
)

// TestNotebookEditModes pins docs/notebooks.md "notebook_edit": replace (outputs kept), replace
// with a type change, insert after a cell and at the start, delete; each writes the library's
// bytes, names the cell and shows the change.
func TestNotebookEditModes(t *testing.T) {
	e := newEnv(t)
	e.file(t, "a.ipynb", notebookText(t))
	dp := e.path("a.ipynb")
	e.ok(t, "read", args{"file_path": "a.ipynb"})

	want := func(edit func(nb *notebook.Notebook) string) string {
		nb, err := notebook.Parse(e.file(t, "a.ipynb"))
		require.NoError(t, err)
		return edit(nb)
	}

	exp := want(func(nb *notebook.Notebook) string { s, _ := nb.Replace(1, "print('bye')\nplot()\n1 + 3", ""); return s })
	r := e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "code0002", "new_source": "print('bye')\nplot()\n1 + 3"})
	assert.Equal(t, exp, e.file(t, "a.ipynb"))
	assert.Equal(t, golden("notebook_edit.updated", "type", "code", "cell", "code0002", "path", dp)+
		"\n-print('hello')\n+print('bye')\n plot()\n-1 + 2\n+1 + 3\n"+golden("notebook_edit.kept_outputs", "n", "3"), r.Text())
	assert.Contains(t, r.Value.(toolnotebook.NotebookEditValue).CellType, "code")

	exp = want(func(nb *notebook.Notebook) string { s, _ := nb.Replace(2, "Division", "markdown"); return s })
	r = e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "code0003", "new_source": "Division", "cell_type": "markdown"})
	assert.Equal(t, exp, e.file(t, "a.ipynb"))
	assert.Equal(t, golden("notebook_edit.updated.retyped_code", "type", "markdown", "cell", "code0003", "path", dp, "old_type", "code")+
		"\n-1/0\n+Division", r.Text())

	r = e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "intro001", "new_source": "import os\n", "edit_mode": "insert"})
	v := r.Value.(toolnotebook.NotebookEditValue)
	assert.Regexp(t, `^[0-9a-f]{8}$`, v.CellID)
	assert.Equal(t, golden("notebook_edit.inserted.after", "type", "code", "cell", v.CellID, "after", "intro001", "path", dp)+"\n+import os", r.Text())
	nb, err := notebook.Parse(e.file(t, "a.ipynb"))
	require.NoError(t, err)
	require.Equal(t, 1, nb.Find(v.CellID))
	assert.Equal(t, "import os\n", nb.Cells[1].Source)

	r = e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "", "new_source": "# Top", "cell_type": "markdown", "edit_mode": "insert"})
	top := r.Value.(toolnotebook.NotebookEditValue).CellID
	assert.Equal(t, golden("notebook_edit.inserted.first", "type", "markdown", "cell", top, "path", dp)+"\n+# Top", r.Text())
	nb, err = notebook.Parse(e.file(t, "a.ipynb"))
	require.NoError(t, err)
	assert.Equal(t, 0, nb.Find(top))

	exp = want(func(nb *notebook.Notebook) string { return nb.Delete(nb.Find("raw00004")) })
	r = e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "raw00004", "new_source": "", "edit_mode": "delete"})
	assert.Equal(t, exp, e.file(t, "a.ipynb"))
	assert.Equal(t, golden("notebook_edit.deleted", "type", "raw", "cell", "raw00004", "path", dp)+"\n(empty source)", r.Text())

	before := e.file(t, "a.ipynb")
	r = e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": top, "new_source": "# Top"})
	assert.Equal(t, golden("notebook_edit.unchanged", "cell", top, "path", dp), r.Text())
	assert.Equal(t, before, e.file(t, "a.ipynb"))
}

// TestNotebookEditUndo pins that a notebook_edit is a change fs-history records: undo restores
// the notebook's bytes.
func TestNotebookEditUndo(t *testing.T) {
	e := newEnv(t)
	e.file(t, "a.ipynb", notebookText(t))
	e.ok(t, "read", args{"file_path": "a.ipynb"})
	e.ok(t, "notebook_edit", args{"notebook_path": "a.ipynb", "cell_id": "code0003", "edit_mode": "delete"})
	require.NotEqual(t, notebookText(t), e.file(t, "a.ipynb"))
	e.ok(t, "undo", args{"file_path": "a.ipynb"})
	assert.Equal(t, notebookText(t), e.file(t, "a.ipynb"))
}

// TestNotebookEditGateAndStaleness pins that notebook_edit has edit's read gate and version
// check: an unread notebook is refused, and so is one changed since it was read.
func TestNotebookEditGateAndStaleness(t *testing.T) {
	e := newEnv(t)
	e.file(t, "a.ipynb", notebookText(t))
	dp := e.path("a.ipynb")
	edit := args{"notebook_path": "a.ipynb", "cell_id": "intro001", "new_source": "x"}
	requireFailure(t, e.edit(edit), `Error: cannot modify "`+dp+`": file has not been read — read the file, then retry`, "FS_NOT_OBSERVED")
	e.ok(t, "read", args{"file_path": "a.ipynb"})
	changed := strings.Replace(notebookText(t), "Some text", "Other text", 1)
	e.file(t, "a.ipynb", changed)
	r := e.edit(edit)
	require.True(t, r.IsError)
	assert.Equal(t, "FS_STALE_VERSION", r.Code())
	assert.Contains(t, r.Text(), " — re-read the file, then retry")
	assert.Equal(t, changed, e.file(t, "a.ipynb"))
	e.ok(t, "read", args{"file_path": "a.ipynb"})
	e.ok(t, "notebook_edit", edit)
}

// TestNotebookEditErrors pins notebook_edit's refusals (docs/notebooks.md "Errors").
func TestNotebookEditErrors(t *testing.T) {
	e := newEnv(t)
	e.file(t, "a.ipynb", notebookText(t))
	e.file(t, "bad.ipynb", "not json")
	e.file(t, "empty.ipynb", `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	dp := e.path("a.ipynb")
	for _, p := range []string{"a.ipynb", "bad.ipynb", "empty.ipynb"} {
		e.ok(t, "read", args{"file_path": p})
	}
	for _, c := range []struct {
		args args
		want string
	}{
		{args{"notebook_path": " ", "cell_id": "x", "new_source": "y"}, "Error: " + golden("notebook_edit.error.blank_path")},
		{args{"notebook_path": "a.ipynb", "new_source": "y"}, "Error: " + golden("notebook_edit.error.cell_id_required")},
		{args{"notebook_path": "a.ipynb", "edit_mode": "delete"}, "Error: " + golden("notebook_edit.error.cell_id_required")},
		{args{"notebook_path": "a.ipynb", "cell_id": "", "new_source": "y"}, "Error: " + golden("notebook_edit.error.cell_id_required")},
		{args{"notebook_path": "a.ipynb", "cell_id": "intro001"}, "Error: " + golden("notebook_edit.error.new_source_required")},
		{args{"notebook_path": "a.py", "cell_id": "x", "new_source": "y"}, "Error: " + golden("notebook_edit.error.not_notebook", "path", "a.py")},
		{args{"notebook_path": "a.ipynb", "cell_id": "nope", "new_source": "y"}, "Error: " + golden("notebook_edit.error.cell_not_found", "cell", "nope", "path", dp) +
			"\n" + golden("notebook_edit.error.cell_not_found.ids", "ids", "intro001, code0002, code0003, raw00004")},
		{args{"notebook_path": "empty.ipynb", "cell_id": "x", "new_source": "y"}, "Error: " + golden("notebook_edit.error.cell_not_found", "cell", "x", "path", e.path("empty.ipynb")) +
			"\n" + golden("notebook_edit.error.cell_not_found.empty")},
		{args{"notebook_path": "bad.ipynb", "cell_id": "x", "new_source": "y"}, `Error: cannot edit "` + e.path("bad.ipynb") + `" as a notebook: it is not valid JSON (Expecting value at line 1, column 1)`},
	} {
		requireFailure(t, e.edit(c.args), c.want, "")
	}
	r := e.edit(args{"notebook_path": "a.ipynb", "cell_id": "x", "new_source": "y", "edit_mode": "move"})
	assert.Equal(t, "INVALID_ARGS", r.Code())
	assert.Equal(t, notebookText(t), e.file(t, "a.ipynb"))

	// The first cell of an empty notebook.
	r = e.ok(t, "notebook_edit", args{"notebook_path": "empty.ipynb", "new_source": "x = 1", "edit_mode": "insert"})
	nb, err := notebook.Parse(e.file(t, "empty.ipynb"))
	require.NoError(t, err)
	require.Len(t, nb.Cells, 1)
	assert.Equal(t, r.Value.(toolnotebook.NotebookEditValue).CellID, nb.Cells[0].ID)
}

// TestNotebookEditKeepsCRLF pins that a notebook with CRLF line breaks keeps them: the
// provider's edit writes the file's own line breaks (docs/fs.md).
func TestNotebookEditKeepsCRLF(t *testing.T) {
	e := newEnv(t)
	crlf := strings.ReplaceAll(notebookText(t), "\n", "\r\n")
	e.file(t, "w.ipynb", crlf)
	e.ok(t, "read", args{"file_path": "w.ipynb"})
	e.ok(t, "notebook_edit", args{"notebook_path": "w.ipynb", "cell_id": "raw00004", "new_source": "raw"})
	got := e.file(t, "w.ipynb")
	assert.NotContains(t, strings.ReplaceAll(got, "\r\n", ""), "\n")
	nb, err := notebook.Parse(strings.ReplaceAll(got, "\r\n", "\n"))
	require.NoError(t, err)
	assert.Equal(t, "raw", nb.Cells[3].Source)
	i := strings.Index(crlf, `"id": "raw00004"`)
	assert.Equal(t, crlf[:i-40], got[:i-40])
}

// TestNotebookEditByPosition pins that an nbformat 4.4 notebook's cells are named by position,
// an inserted cell gets no id, and the result says the names after it moved.
func TestNotebookEditByPosition(t *testing.T) {
	e := newEnv(t)
	old := "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": [\n    \"a\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}\n"
	e.file(t, "old.ipynb", old)
	r := e.ok(t, "read", args{"file_path": "old.ipynb"})
	assert.Contains(t, r.Text(), "<cell id=\"cell-0\" type=\"markdown\">\n1: a\n</cell>\n")
	r = e.ok(t, "notebook_edit", args{"notebook_path": "old.ipynb", "cell_id": "cell-0", "new_source": "b", "edit_mode": "insert", "cell_type": "markdown"})
	assert.Equal(t, golden("notebook_edit.inserted.after", "type", "markdown", "cell", "cell-1", "after", "cell-0", "path", e.path("old.ipynb"))+
		"\n+b\n"+golden("notebook_edit.by_position"), r.Text())
	assert.Equal(t, strings.Replace(old, "  }\n ],", "  },\n  {\n   \"cell_type\": \"markdown\",\n   \"metadata\": {},\n   \"source\": [\n    \"b\"\n   ]\n  }\n ],", 1), e.file(t, "old.ipynb"))
}

// TestRenderNotebookEditDiff pins the change a result shows: two lines of context, "…" between
// changes further apart, at most 40 lines.
func TestRenderNotebookEditDiff(t *testing.T) {
	lines := func(n int, edit map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := edit[i]; ok {
				b.WriteString(s + "\n")
			} else {
				b.WriteString("l" + strconv.Itoa(i) + "\n")
			}
		}
		return b.String()
	}
	old, new := lines(20, nil), lines(20, map[int]string{3: "X", 15: "Y"})
	v := toolnotebook.NotebookEditValue{Path: "/n.ipynb", EditMode: "replace", CellID: "c", CellType: "code", OldSource: &old, NewSource: &new}
	assert.Equal(t, golden("notebook_edit.updated", "type", "code", "cell", "c", "path", "/n.ipynb")+"\n l1\n l2\n-l3\n+X\n l4\n l5\n…\n l13\n l14\n-l15\n+Y\n l16\n l17", toolnotebook.RenderNotebookEdit(v))
	big := lines(100, nil)
	v = toolnotebook.NotebookEditValue{Path: "/n.ipynb", EditMode: "insert", CellID: "c", CellType: "code", NewSource: &big}
	got := toolnotebook.RenderNotebookEdit(v)
	assert.True(t, strings.HasSuffix(got, "\n+l40\n… (60 more lines)"), got)
}

// TestNotebookEditUnderTheSandbox pins that notebook_edit is fenced as edit is: in read-only mode
// the edit is denied with the sandbox's marker and the escalation it offers, the file unchanged.
func TestNotebookEditUnderTheSandbox(t *testing.T) {
	e := newEnvUnder(t, sandbox.ReadOnly)
	e.file(t, "a.ipynb", notebookText(t))
	e.ok(t, "read", args{"file_path": "a.ipynb"})
	r := e.edit(args{"notebook_path": "a.ipynb", "cell_id": "intro001", "new_source": "x"})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_SANDBOX_DENIED", r.Code())
	assert.True(t, strings.HasPrefix(r.Text(), "Error: [sandbox: file access denied under read-only mode]\n"), r.Text())
	assert.Equal(t, notebookText(t), e.file(t, "a.ipynb"))
	requireFailure(t, e.edit(args{"notebook_path": "a.ipynb", "cell_id": "intro001", "new_source": "x", "justification": "why"}),
		"Error: invalid escalation: justification is only valid together with sandbox_permissions", "")
}

// A notebook over notebook.MaxBytes is refused before it is read (the read shows it as text): the
// edit never holds it whole, and says how large it is.
func TestEditRefusesANotebookOverTheCapBeforeReadingIt(t *testing.T) {
	e := newEnv(t)
	e.file(t, "big.ipynb", notebookText(t)+strings.Repeat(" ", 9000))
	p := e.path("big.ipynb")
	size := int64(notebook.MaxBytes + 4096)
	require.NoError(t, os.Truncate(p, size)) // a hole: NUL bytes past the first 8 KiB
	e.ok(t, "read", args{"file_path": p, "limit": 1})
	r := e.edit(args{"notebook_path": p, "cell_id": "code0002", "new_source": "x"})
	requireFailure(t, r, `Error: cannot edit "`+p+`": `+strconv.FormatInt(size, 10)+` bytes exceeds the 67108864-byte limit`, "FS_TOO_LARGE")
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, size, st.Size(), "nothing is written")
}
