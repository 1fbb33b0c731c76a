package toolfs_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// notebookText is a small nbformat 4.5 notebook as nbformat writes it, with a stream, a result,
// an image (png1x1), an error with ANSI escapes, a markdown cell and a raw cell.
func notebookText(t *testing.T) string {
	b, err := os.ReadFile("../../internal/notebook/testdata/tools.ipynb")
	require.NoError(t, err)
	return string(b)
}

// notebookView is the text of a whole read of notebookText in dir (imageLine: the image's line).
func notebookView(dp, imageLine string) string {
	return golden("read.notebook.envelope", "path", dp, "format", golden("read.notebook.format.language", "format", "4.5", "language", "python"), "body",
		"<cell id=\"intro001\" type=\"markdown\">\n1: # Title\n2: Some text\n</cell>\n"+
			"<cell id=\"code0002\" type=\"code\" execution_count=\"2\">\n1: print('hello')\n2: plot()\n3: 1 + 2\n"+
			"<output type=\"stream\" name=\"stdout\">\nhello\n</output>\n"+
			"<output type=\"display_data\">\n"+imageLine+"\n<Figure size 1x1>\n</output>\n"+
			"<output type=\"execute_result\">\n3\n</output>\n</cell>\n"+
			"<cell id=\"code0003\" type=\"code\" execution_count=\"3\">\n1: 1/0\n"+
			"<output type=\"error\" ename=\"ZeroDivisionError\">\n---------------------------------------------------------------------------\nZeroDivisionError: division by zero\n</output>\n</cell>\n"+
			"<cell id=\"raw00004\" type=\"raw\">\n</cell>\n"+
			"\n"+cellsEnd(4))
}

// cellsEnd and cellsShowing are the notebook read's footers.
func cellsEnd(total int) string {
	return golden("read.notebook.footer.end", "total", strconv.Itoa(total))
}

func cellsShowing(first, last, total int) string {
	return golden("read.notebook.footer.window", "first", strconv.Itoa(first), "last", strconv.Itoa(last), "total", strconv.Itoa(total),
		"next", strconv.Itoa(last+1))
}

// TestNotebookReadShowsCells pins docs/notebooks.md "The text the model sees": a notebook reads
// as its cells, ids, types, numbered sources and text outputs (the traceback without its ANSI
// escapes), with its image as an image block for a model that takes images.
func TestNotebookReadShowsCells(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeFile(t, "a.ipynb", notebookText(t))
	r := e.callIn(e.withModel("vision-model"), "read", args{"file_path": "a.ipynb"})
	requireOK(t, r)
	dp := e.path("a.ipynb")
	require.Len(t, r.Content, 2)
	assert.Equal(t, notebookView(dp, "[image 1 of this result: image/png, 1x1 px]"), r.Content[0].Text)
	assert.Equal(t, "image", string(r.Content[1].Type))
	assert.Equal(t, "image/png", r.Content[1].MediaType)
	assert.Equal(t, base64.StdEncoding.EncodeToString(png1x1), r.Content[1].Data)
	assert.Equal(t, []string{"present " + dp}, e.takeObserved())
	v := r.Value.(toolfs.ReadValue)
	require.NotNil(t, v.Notebook)
	assert.Equal(t, 4, v.Notebook.TotalCells)
	assert.Equal(t, "4.5", v.Notebook.Format)
	require.Len(t, v.Notebook.Cells[1].Images, 1)
	assert.Equal(t, "a-cell2-1", v.Notebook.Cells[1].Images[0].Name)
}

// TestNotebookReadImagesFollowTheModel pins that a model that takes no images, or a deployment
// without a store, gets the image's line saying why instead of the image.
func TestNotebookReadImagesFollowTheModel(t *testing.T) {
	e := newImgEnv(t, imgOptions{})
	e.writeFile(t, "a.ipynb", notebookText(t))
	r := e.callIn(e.withModel("text-model"), "read", args{"file_path": "a.ipynb"})
	requireOK(t, r)
	require.Len(t, r.Content, 1)
	assert.Equal(t, notebookView(e.path("a.ipynb"), `[image/png image not shown: model "text-model" does not declare image input; switch to an image-capable model to read images]`), r.Content[0].Text)

	bare := newEnv(t, envOptions{})
	bare.writeFile(t, "a.ipynb", notebookText(t))
	r = bare.call("read", args{"file_path": "a.ipynb"})
	requireOK(t, r)
	assert.Equal(t, notebookView(bare.path("a.ipynb"), "[image/png image not shown: no attachment service is mounted]"), r.Content[0].Text)
}

// manyCells is a notebook of n code cells, each with two source lines and a stream output.
func manyCells(n int) string {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"cell_type": "code", "execution_count": %d, "id": "c%07d", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["value %d\n"]}], "source": ["x = %d\n", "print(x * 2)"]}`, i+1, i, i*2, i)
	}
	b.WriteString("\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return b.String()
}

// TestNotebookPagesContinue pins the pagination contract by cell (docs/notebooks.md "Pages"): a
// 2,000-cell notebook read page after page, each from the offset its footer names, shows every
// cell once, in order, each page within the result budget, the last ending with the total.
func TestNotebookPagesContinue(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "big.ipynb", manyCells(2000))
	offset, pages, next := 1, 0, 0
	for {
		r := e.call("read", args{"file_path": "big.ipynb", "offset": offset})
		requireOK(t, r)
		text := r.Content[0].Text
		require.LessOrEqual(t, len(text), 36000)
		v := r.Value.(toolfs.ReadValue)
		require.NotEmpty(t, v.Notebook.Cells)
		for _, c := range v.Notebook.Cells {
			require.Equal(t, next+1, c.Number)
			require.Equal(t, fmt.Sprintf("c%07d", next), c.ID)
			require.Contains(t, c.Text, fmt.Sprintf("1: x = %d\n", next))
			next++
		}
		pages++
		if next == 2000 {
			require.True(t, strings.HasSuffix(text, "\n"+cellsEnd(2000)+"\n</content>"), text[len(text)-80:])
			break
		}
		footer := "\n" + cellsShowing(offset, next, 2000) + "\n</content>"
		require.True(t, strings.HasSuffix(text, footer), text[len(text)-120:])
		offset = next + 1
	}
	t.Logf("2000 cells in %d pages", pages)

	r := e.call("read", args{"file_path": "big.ipynb", "offset": 1999, "limit": 1})
	requireOK(t, r)
	assert.True(t, strings.HasSuffix(r.Content[0].Text, "\n"+cellsShowing(1999, 1999, 2000)+"\n</content>"))
	requireFailure(t, e.call("read", args{"file_path": "big.ipynb", "offset": 2001}),
		`Error: offset 2001 is out of range for "`+e.path("big.ipynb")+`" (2000 cells)`, "FS_NOT_FOUND")
}

// TestNotebookReadCutsAHugeCell pins that a first cell over the budget alone is shown cut to the
// source lines that fit, outputs left out, and the next page starts after it.
func TestNotebookReadCutsAHugeCell(t *testing.T) {
	e := newEnv(t, envOptions{})
	src := strings.Repeat(`    "`+strings.Repeat("y", 100)+`\n",`+"\n", 1000)
	e.writeFile(t, "huge.ipynb", `{"cells": [{"cell_type": "code", "execution_count": null, "id": "huge", "metadata": {}, "outputs": [], "source": [`+
		src+`"end"]}, {"cell_type": "markdown", "id": "next", "metadata": {}, "source": "after"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	r := e.call("read", args{"file_path": "huge.ipynb"})
	requireOK(t, r)
	text := r.Content[0].Text
	assert.LessOrEqual(t, len(text), 36000)
	assert.Regexp(t, `\n\(cell cut to fit the result: source lines 1-\d+ of 1001 shown, outputs left out\)\n</cell>\n\n`+
		regexp.QuoteMeta(cellsShowing(1, 1, 2))+`\n</content>$`, text)
}

// TestNotebookReadAsText pins that a .ipynb that is not an nbformat-4 notebook reads as text
// with a line saying why.
func TestNotebookReadAsText(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "bad.ipynb", "{\n \"cells\": [\n}\n")
	r := e.call("read", args{"file_path": "bad.ipynb"})
	requireOK(t, r)
	assert.Equal(t, "<path>"+e.path("bad.ipynb")+"</path>\n<type>file</type>\n"+
		golden("read.notebook.as_text", "why", "it is not valid JSON (Expecting value at line 3, column 1)")+"\n"+
		"<content>\n1: {\n2:  \"cells\": [\n3: }\n\n"+endOf(3)+"\n</content>", r.Content[0].Text)
	assert.Equal(t, "it is not valid JSON (Expecting value at line 3, column 1)", r.Value.(toolfs.ReadValue).Note)

	v3, err := os.ReadFile("../../internal/notebook/testdata/text/v3.ipynb")
	require.NoError(t, err)
	e.writeFile(t, "v3.ipynb", string(v3))
	r = e.call("read", args{"file_path": "v3.ipynb", "limit": 1})
	requireOK(t, r)
	assert.Contains(t, r.Content[0].Text, "\n"+golden("read.notebook.as_text", "why", "it is nbformat 3; only nbformat 4 is read as cells")+"\n<content>\n1: {\n")
}

// BenchmarkNotebookRead2000 measures one read of a 2,000-cell notebook (docs/notebooks.md): the
// whole text parsed and the first page rendered within the default budget.
func BenchmarkNotebookRead2000(b *testing.B) {
	text := manyCells(2000)
	path := filepath.Join(b.TempDir(), "big.ipynb")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	rt, s := benchEnv(b, filepath.Dir(path))
	args := map[string]any{"file_path": path}
	if r := rt.Execute(context.Background(), tools.Call{CallID: "warm", Name: "read", Args: args, Session: s}); r.IsError ||
		!strings.Contains(r.Text(), "(Showing cells 1-") {
		b.Fatalf("unexpected read result: %.200s", r.Text())
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "read", Args: args, Session: s}); r.IsError {
			b.Fatal(r.Text())
		}
	}
}

// TestNotebookReadImageLimits pins that a page carries at most maxImagesPerMessage images: a later
// cell whose image would pass it starts the next page, and a first cell's image past it is not
// shown, saying why.
func TestNotebookReadImageLimits(t *testing.T) {
	limits := defaultLimits()
	limits.MaxImagesPerMessage = 1
	e := newImgEnv(t, imgOptions{limits: &limits})
	img := base64.StdEncoding.EncodeToString(png1x1)
	display := `{"output_type": "display_data", "metadata": {}, "data": {"image/png": "` + img + `"}}`
	cell := func(id, outputs string) string {
		return `{"cell_type": "code", "execution_count": 1, "id": "` + id + `", "metadata": {}, "source": "plot()", "outputs": [` + outputs + `]}`
	}
	e.writeFile(t, "imgs.ipynb", `{"cells": [`+cell("one", display)+`, `+cell("two", display+`, `+display)+`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	s := e.withModel("vision-model")

	r := e.callIn(s, "read", args{"file_path": "imgs.ipynb"})
	requireOK(t, r)
	require.Len(t, r.Content, 2)
	assert.True(t, strings.HasSuffix(r.Content[0].Text, "</cell>\n\n"+cellsShowing(1, 1, 2)+"\n</content>"), r.Content[0].Text)

	r = e.callIn(s, "read", args{"file_path": "imgs.ipynb", "offset": 2})
	requireOK(t, r)
	require.Len(t, r.Content, 2)
	assert.Contains(t, r.Content[0].Text, "[image 1 of this result: image/png, 1x1 px]\n</output>\n<output type=\"display_data\">\n"+
		"[image/png image not shown: this result already carries 1 images, the most one result may]\n</output>")
}
