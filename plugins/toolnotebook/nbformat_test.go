package toolnotebook_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook/nbformattest"
	"github.com/cordon-dev/cordon/plugins/toolnotebook"
)

// jupyterLabData is a notebook's data in the shape JupyterLab's front end sends it to be saved
// (full UUID ids, sources as single strings, execution metadata, a trusted flag), which the
// server writes through nbformat.
const jupyterLabData = `{"nbformat": 4, "nbformat_minor": 5,
 "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}, "language_info": {"name": "python"}},
 "cells": [
  {"id": "3f0c2b8e-5d7a-4e3b-9a61-0c8f1d2e4b5a", "cell_type": "code", "execution_count": 1,
   "metadata": {"execution": {"iopub.execute_input": "2024-05-01T10:00:00.123456Z"}, "tags": [], "trusted": true},
   "source": "x = 1\ny = 2\nx + y", "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": "3"}}]},
  {"id": "9b1e6a2c-0f4d-4c8a-b2e7-5d3f1a9c8e7b", "cell_type": "markdown", "metadata": {"jupyter": {"source_hidden": true}}, "source": "## Notes\n\n- é\n"}
 ]}`

// TestNotebookEditWritesNbformatsBytes pins docs/notebooks.md "Jupyter's own bytes" through the
// tool: on a notebook written by nbformat and on one JupyterLab saved, every mode of
// notebook_edit leaves exactly the bytes nbformat writes for the same edit, and
// nbformat.validate accepts them.
func TestNotebookEditWritesNbformatsBytes(t *testing.T) {
	lab := nbformattest.Ask(t, []nbformattest.Case{{Text: jupyterLabData, Mode: "write"}, {Text: notebookText(t), Mode: "none"}})
	require.Equal(t, notebookText(t), lab[1].Text, "the fixture is nbformat's own bytes")
	for name, c := range map[string]struct {
		text string
		ids  []string
	}{
		"nbformat":   {notebookText(t), []string{"intro001", "code0002", "code0003", "raw00004"}},
		"jupyterlab": {lab[0].Text, []string{"3f0c2b8e-5d7a-4e3b-9a61-0c8f1d2e4b5a", "9b1e6a2c-0f4d-4c8a-b2e7-5d3f1a9c8e7b"}},
	} {
		var edits []args
		var cases []nbformattest.Case
		var got []string
		for i, id := range c.ids {
			edits = append(edits,
				args{"cell_id": id, "new_source": "new\nsource ✓", "edit_mode": "replace"},
				args{"cell_id": id, "new_source": "# md\n", "cell_type": "markdown"},
				args{"cell_id": id, "new_source": "y = 3", "edit_mode": "insert"},
				args{"cell_id": id, "edit_mode": "delete"})
			cases = append(cases,
				nbformattest.Case{Mode: "replace", Index: i, Source: "new\nsource ✓"},
				nbformattest.Case{Mode: "replace", Index: i, Source: "# md\n", Type: "markdown"},
				nbformattest.Case{Mode: "insert", Index: i, Source: "y = 3", Type: "code"},
				nbformattest.Case{Mode: "delete", Index: i})
		}
		edits = append(edits, args{"new_source": "top", "cell_type": "raw", "edit_mode": "insert"})
		cases = append(cases, nbformattest.Case{Mode: "insert", Index: -1, Source: "top", Type: "raw"})
		for k, a := range edits {
			e := newEnv(t)
			e.file(t, "n.ipynb", c.text)
			e.ok(t, "read", args{"file_path": "n.ipynb"})
			a["notebook_path"] = "n.ipynb"
			r := e.ok(t, "notebook_edit", a)
			if cases[k].Mode == "insert" {
				cases[k].ID = r.Value.(toolnotebook.NotebookEditValue).CellID
			}
			cases[k].Text = c.text
			got = append(got, e.file(t, "n.ipynb"))
		}
		for k, a := range nbformattest.Ask(t, cases) {
			require.Nil(t, a.Invalid, "%s %+v", name, edits[k])
			require.Equal(t, a.Text, got[k], "%s %+v", name, edits[k])
		}
		t.Logf("%s: %d notebook_edit calls wrote nbformat's bytes", name, len(edits))
	}
}
