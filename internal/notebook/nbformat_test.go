package notebook_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/internal/notebook/nbformattest"
)

// A tiny PNG (1x1), base64, as Jupyter stores it: one string ending in a newline (escaped for JSON).
const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\\n"

// nbformatNotebook is a notebook's data as nbformat makes it (new_notebook, new_*_cell, outputs
// of a kernel), with what an edit must keep: non-ASCII, control characters, floats, outputs of
// every kind, an image, attachments, an error with ANSI escapes.
const nbformatNotebook = `{
 "nbformat": 4, "nbformat_minor": 5,
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
  "language_info": {"name": "python", "version": "3.11.2", "codemirror_mode": {"name": "ipython", "version": 3}},
  "widths": [0.1, 1.0, 1e-07, 1e16, 2.5e+20, 123456789.125, -0.0, 100]},
 "cells": [
  {"id": "7a1f3c2e", "cell_type": "markdown", "metadata": {}, "source": "# Título ✓\nCafé \"quoted\" \\ back\u2028sep\n\ttab <b>&</b>"},
  {"id": "0b9d4e11", "cell_type": "code", "execution_count": 3, "metadata": {"scrolled": true, "tags": ["a", "b"]},
   "source": "import numpy as np\nprint('hi')\nnp.arange(3)",
   "outputs": [
    {"output_type": "stream", "name": "stdout", "text": "hi\nthere\n"},
    {"output_type": "execute_result", "execution_count": 3, "metadata": {}, "data": {"text/plain": "array([0, 1, 2])", "text/html": "<b>x</b>\n<i>y</i>"}},
    {"output_type": "display_data", "metadata": {"image/png": {"width": 1, "height": 1}}, "data": {"image/png": "` + pngB64 + `", "text/plain": "<Figure size 1x1>"}},
    {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": ["\u001b[0;31m---------\u001b[0m", "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"]}
   ]},
  {"id": "5c0ffee5", "cell_type": "raw", "metadata": {"format": "text/x-rst"}, "source": "raw \u0001 text\r\nwith crlf\n"},
  {"id": "d00dfeed", "cell_type": "markdown", "metadata": {}, "attachments": {"a.png": {"image/png": "` + pngB64 + `"}}, "source": "![a](attachment:a.png)"},
  {"id": "e1e2e3e4", "cell_type": "code", "execution_count": null, "metadata": {}, "source": "", "outputs": []}
 ]
}`

// jupyterLabNotebook is a notebook's data in the shape JupyterLab's front end sends it to be saved
// (full UUID cell ids, sources as single strings, jupyter and execution metadata, a trusted
// flag nbformat strips), which the server writes through nbformat.
const jupyterLabNotebook = `{
 "nbformat": 4, "nbformat_minor": 5,
 "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
  "language_info": {"name": "python", "file_extension": ".py", "mimetype": "text/x-python", "nbconvert_exporter": "python", "pygments_lexer": "ipython3", "version": "3.12.1"}},
 "cells": [
  {"id": "3f0c2b8e-5d7a-4e3b-9a61-0c8f1d2e4b5a", "cell_type": "code", "execution_count": 1,
   "metadata": {"execution": {"iopub.execute_input": "2024-05-01T10:00:00.123456Z", "iopub.status.busy": "2024-05-01T10:00:00.100000Z"}, "tags": [], "trusted": true},
   "source": "x = 1\ny = 2\nx + y", "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": "3"}}]},
  {"id": "9b1e6a2c-0f4d-4c8a-b2e7-5d3f1a9c8e7b", "cell_type": "markdown", "metadata": {"jupyter": {"source_hidden": true}}, "source": "## Notes\n\n- one\n- two\n"},
  {"id": "c4d5e6f7-1a2b-4c3d-8e9f-0a1b2c3d4e5f", "cell_type": "code", "execution_count": 2, "metadata": {"collapsed": false, "jupyter": {"outputs_hidden": false}},
   "source": "for i in range(3):\n    print(i)", "outputs": [{"output_type": "stream", "name": "stdout", "text": "0\n1\n2\n"}, {"output_type": "stream", "name": "stderr", "text": "warn\r\n"}]}
 ]
}`

// oldNotebook is an nbformat 4.4 notebook: no cell ids.
const oldNotebook = `{
 "nbformat": 4, "nbformat_minor": 4,
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": "# Old\nnotebook"},
  {"cell_type": "code", "execution_count": 7, "metadata": {"collapsed": true}, "source": "a = 1\na", "outputs": [{"output_type": "execute_result", "execution_count": 7, "metadata": {}, "data": {"text/plain": "1"}}]},
  {"cell_type": "code", "execution_count": null, "metadata": {}, "source": "", "outputs": []}
 ]
}`

// sources are the new sources the edits write: line endings of every kind Python splits at,
// no final newline, empty, quotes, backslashes, control characters, non-ASCII.
var sources = []string{
	"print(\"hello\")\n",
	"a = 1\nb = 2",
	"",
	"x\r\ny\rz\u2028w\u0085v\x0bu\x0ct\x1cs",
	"tab\there \\ back \"q\" <&> \x01\x1f \u00e9\u4e2d\U0001F600\n\n",
}

// writtenByNbformat returns the fixtures as nbformat itself writes them.
func writtenByNbformat(t *testing.T) map[string]string {
	nbformattest.Require(t)
	fixturesOnce.Do(func() { fixtures = writeFixtures(t) })
	if fixtures == nil {
		t.FailNow()
	}
	return fixtures
}

var (
	fixturesOnce sync.Once
	fixtures     map[string]string
)

func writeFixtures(t *testing.T) map[string]string {
	names := []string{"nbformat", "jupyterlab", "v4.4"}
	data := []string{nbformatNotebook, jupyterLabNotebook, oldNotebook}
	var cases []nbformattest.Case
	for _, d := range data {
		cases = append(cases, nbformattest.Case{Text: d, Mode: "write"})
	}
	answers := nbformattest.Ask(t, cases)
	out := map[string]string{}
	for i, a := range answers {
		require.Nil(t, a.Invalid, "%s: %v", names[i], deref(a.Invalid))
		out[names[i]] = a.Text
	}
	return out
}

// edit is one notebook edit, applied by the library and asked of nbformat.
type edit struct {
	nbformattest.Case
	got string
}

func editsOf(t *testing.T, text string) []edit {
	nb, err := notebook.Parse(text)
	require.NoError(t, err)
	var edits []edit
	add := func(c nbformattest.Case, got string, err error) {
		require.NoError(t, err)
		c.Text = text
		edits = append(edits, edit{Case: c, got: got})
	}
	for i, c := range nb.Cells {
		for k, src := range sources {
			// The same type, then each other type in turn.
			typ := []string{"", "code", "markdown", "raw", ""}[k]
			got, err := nb.Replace(i, src, typ)
			add(nbformattest.Case{Mode: "replace", Index: i, Source: src, Type: typ}, got, err)
		}
		got := nb.Delete(i)
		add(nbformattest.Case{Mode: "delete", Index: i}, got, nil)
		_ = c
	}
	for after := -1; after < len(nb.Cells); after++ {
		for k, typ := range []string{"code", "markdown", "raw"} {
			id := ""
			if nb.HasIDs() {
				id = nb.NewID()
			}
			src := sources[(after+1+k)%len(sources)]
			got, err := nb.Insert(after, typ, id, src)
			add(nbformattest.Case{Mode: "insert", Index: after, Source: src, Type: typ, ID: id}, got, err)
		}
	}
	return edits
}

// TestEditsWriteNbformatsBytes pins docs/notebooks.md "Jupyter's own bytes": for notebooks
// written by nbformat and in JupyterLab's shape, and for an nbformat 4.4 notebook without ids,
// every replace (keeping or changing the type), every insert (after each cell and at the start,
// of each type) and every delete gives exactly the bytes nbformat writes for the edited
// notebook, and nbformat.validate accepts them.
func TestEditsWriteNbformatsBytes(t *testing.T) {
	fixtures := writtenByNbformat(t)
	for name, text := range fixtures {
		edits := editsOf(t, text)
		cases := make([]nbformattest.Case, len(edits))
		for i, e := range edits {
			cases[i] = e.Case
		}
		answers := nbformattest.Ask(t, cases)
		for i, e := range edits {
			a := answers[i]
			require.Nil(t, a.Invalid, "%s: %s %d %q: %s", name, e.Mode, e.Index, e.Source, deref(a.Invalid))
			require.Equal(t, a.Text, e.got, "%s: %s at %d of %q (type %q)", name, e.Mode, e.Index, e.Source, e.Type)
		}
		t.Logf("%s: %d edits equal nbformat's bytes", name, len(edits))
	}
}

// TestOldNotebooksKeepTheirVersion pins that an nbformat 4.4 notebook is never upgraded: no ids
// are added, not even to an inserted cell, and the minor version stays.
func TestOldNotebooksKeepTheirVersion(t *testing.T) {
	text := writtenByNbformat(t)["v4.4"]
	nb, err := notebook.Parse(text)
	require.NoError(t, err)
	require.False(t, nb.HasIDs())
	require.Equal(t, "cell-1", nb.DisplayID(1))
	require.Equal(t, 1, nb.Find("cell-1"))
	require.Equal(t, -1, nb.Find("cell-01"))
	require.Equal(t, -1, nb.Find("cell-3"))
	got, err := nb.Insert(0, notebook.TypeCode, "", "new\n")
	require.NoError(t, err)
	require.NotContains(t, got, `"id"`)
	require.Contains(t, got, `"nbformat_minor": 4`)
}

// TestCanonicalRoundTrip pins that the dumper is nbformat's: an unedited nbformat file written
// again cell by cell is the same bytes.
func TestCanonicalRoundTrip(t *testing.T) {
	for name, text := range writtenByNbformat(t) {
		root, err := notebook.ParseJSON(text)
		require.NoError(t, err)
		got := string(notebook.Dump(nil, root, 0)) + "\n"
		require.Equal(t, text, got, name)
		require.True(t, strings.HasSuffix(text, "}\n"))
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
