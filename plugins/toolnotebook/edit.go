package toolnotebook

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The model-facing texts of notebook_edit, from texts.json beside this file: the one place they are
// written (docs/texts.md; docs/notebooks.md "notebook_edit" quotes them).
var (
	//go:embed texts.json
	textsJSON    []byte
	notebookText = texts.MustParse("plugins/toolnotebook/texts.json", textsJSON)

	notebookEditDescription = notebookText.Text("notebook_edit.description")
)

var notebookEditParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"notebook_path":{"type":"string","description":"The notebook (.ipynb) to edit. ` + filetool.PathRule + `"},` +
	`"cell_id":{"type":"string","description":"The id of the cell to replace or delete, or of the cell after which to insert, as read shows it. Omit it to insert at the start of the notebook."},` +
	`"new_source":{"type":"string","description":"The new source of the cell. Not used by delete."},` +
	`"cell_type":{"type":"string","enum":["code","markdown","raw"],"description":"The cell's type. Defaults to the cell's own type for replace and to code for insert."},` +
	`"edit_mode":{"type":"string","enum":["replace","insert","delete"],"description":"replace (the default) changes the cell's source, insert adds a new cell after cell_id, delete removes the cell."}` +
	`},"required":["notebook_path"]}`)

// notebook_edit's argument errors: plain errors (no code).
var (
	errBlankNotebookPath = errors.New(notebookText.Text("notebook_edit.error.blank_path"))
	errCellIDRequired    = errors.New(notebookText.Text("notebook_edit.error.cell_id_required"))
	errNewSourceRequired = errors.New(notebookText.Text("notebook_edit.error.new_source_required"))
)

// notebookEditArgs are notebook_edit's arguments as the schema admits them, with the sandbox's
// escalation arguments as sent.
type notebookEditArgs struct {
	NotebookPath  string          `json:"notebook_path"`
	CellID        *string         `json:"cell_id"`
	NewSource     *string         `json:"new_source"`
	CellType      *string         `json:"cell_type"`
	EditMode      *string         `json:"edit_mode"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// NotebookEditValue is the canonical value of a successful notebook_edit: the display path, the
// mode, the cell (its id after the edit, its type) and, for an insert, the cell it follows ("" at
// the start); its source before (nil for an insert) and after (nil for a delete); and the
// notebook's text before and after (LF-normalized, both nil beyond the diff basis bound), for
// the diff meta.
type NotebookEditValue struct {
	Path        string  `json:"path"`
	EditMode    string  `json:"editMode"`
	CellID      string  `json:"cellId"`
	CellType    string  `json:"cellType"`
	AfterCell   string  `json:"afterCell,omitempty"`
	OldSource   *string `json:"oldSource"`
	NewSource   *string `json:"newSource"`
	OldType     string  `json:"oldType,omitempty"`
	KeptOutputs int     `json:"keptOutputs,omitempty"`
	ByPosition  bool    `json:"byPosition,omitempty"`
	Before      *string `json:"before"`
	After       *string `json:"after"`
}

func (s *suite) notebookEditDefinition() tools.Definition {
	return tools.Tool[notebookEditArgs, NotebookEditValue]{
		Name:        "notebook_edit",
		Description: notebookEditDescription,
		Parameters:  s.Sandbox.Parameters(notebookEditParameters),
		Execute:     filetool.BudgetErrors(s.budget, s.notebookEdit),
		Render: func(_ notebookEditArgs, v NotebookEditValue) []tools.Content {
			return []tools.Content{tools.TextContent(RenderNotebookEdit(v))}
		},
		PresentationMeta: func(a notebookEditArgs, v NotebookEditValue) any {
			if v.Before == nil || v.After == nil {
				return filetool.DiffMeta{Diffs: []filetool.FileDiff{}}
			}
			return filetool.DiffMeta{Diffs: filetool.ComputeHunkDiffs(a.NotebookPath, *v.Before, *v.After)}
		},
		Guidance:    tools.StaticGuidance(notebookEditGuidanceOrder, notebookEditGuidance),
		Annotations: tools.Annotations{Destructive: true},
	}.Definition()
}

// notebookEditGuidanceOrder places notebook_edit's guidance section after glob's and grep's.
const notebookEditGuidanceOrder = 105

// notebookEditGuidance is notebook_edit's guidance section.
var notebookEditGuidance = notebookText.Text("notebook_edit.guidance")

// notebookEditInput is a validated notebook_edit request.
type notebookEditInput struct {
	path, cellID, source, cellType, mode string
	hasCellID                            bool
}

// parseNotebookEditArgs validates, in order: a blank notebook_path, a replace or delete without
// cell_id (an empty one is absent), a replace or insert without new_source, and a path that is
// not a .ipynb file.
func parseNotebookEditArgs(a notebookEditArgs) (notebookEditInput, error) {
	if texts.IsBlank(a.NotebookPath) {
		return notebookEditInput{}, errBlankNotebookPath
	}
	in := notebookEditInput{path: a.NotebookPath, mode: "replace"}
	if a.EditMode != nil {
		in.mode = *a.EditMode
	}
	if a.CellID != nil && *a.CellID != "" {
		in.cellID, in.hasCellID = *a.CellID, true
	}
	if a.CellType != nil {
		in.cellType = *a.CellType
	}
	if !in.hasCellID && in.mode != "insert" {
		return notebookEditInput{}, errCellIDRequired
	}
	if a.NewSource == nil && in.mode != "delete" {
		return notebookEditInput{}, errNewSourceRequired
	}
	if a.NewSource != nil {
		in.source = *a.NewSource
	}
	if !notebook.IsPath(a.NotebookPath) {
		return notebookEditInput{}, errors.New(notebookText.MustRender("notebook_edit.error.not_notebook", "path", a.NotebookPath))
	}
	return in, nil
}

// notebookEdit is the body of notebook_edit (docs/notebooks.md "notebook_edit"): the sandbox
// step, resolve, the fs/edit-intent guard (the read gate and the version the session read), the
// notebook's text, the edit computed by internal/notebook, then the provider's EditText of the
// whole text (the guard, the staleness rule, history and the atomic replacement are edit's),
// and fs/observed present at the new version.
func (s *suite) notebookEdit(ctx context.Context, args notebookEditArgs, exec *tools.Exec) (NotebookEditValue, error) {
	in, err := parseNotebookEditArgs(args)
	if err != nil {
		return NotebookEditValue{}, err
	}
	preview := tools.ApprovalPreview{Label: "New source of cell " + in.cellID, Text: in.source}
	if in.mode == "delete" {
		preview = tools.ApprovalPreview{Label: "Delete cell", Text: in.cellID}
	}
	start, err := s.StartEdit(ctx, "notebook_edit", filetool.Escalation{Permissions: args.Permissions, Justification: args.Justification}, exec,
		filetool.Action{FilePath: in.path, Previews: []tools.ApprovalPreview{preview}}, in.path)
	if err != nil {
		return NotebookEditValue{}, err
	}
	policy, target, guard := start.Policy, start.Target, start.Guard
	dp := target.DisplayPath
	read, err := readNotebook(sandbox.WithPolicy(ctx, policy), s.FS, target) // under the call's policy, as the edit
	if err != nil {
		return NotebookEditValue{}, s.MutationFailure(ctx, fs.VerbEdit, target, policy, exec, err)
	}
	// The provider matches an edit on the text with each CRLF read as LF (docs/fs.md); JSON
	// holds line breaks only between its tokens, so the notebook parses the same.
	text := strings.ReplaceAll(read.Text, "\r\n", "\n")
	nb, err := notebook.Parse(text)
	if err != nil {
		return NotebookEditValue{}, errors.New(`cannot edit "` + dp + `" as a notebook: ` + notebook.Reason(err))
	}
	v, newText, changed, err := applyNotebookEdit(nb, in, dp)
	if err != nil {
		return NotebookEditValue{}, err
	}
	if !changed {
		return v, nil
	}
	req := fs.EditRequest{OldString: text, NewString: newText}
	out, err := s.FS.EditText(sandbox.WithPolicy(ctx, policy), target, req, guard)
	if err != nil {
		return NotebookEditValue{}, s.MutationFailure(ctx, fs.VerbEdit, target, policy, exec, err)
	}
	// The notebook the edit produced is seen whole, as after edit (docs/tool-fs.md "edit").
	obs := fs.Present(out.Version)
	if out.HasText {
		obs = fs.PresentSeen(out.Version, seen.Whole(out.Text))
	}
	if err := s.Observe(ctx, target, obs, exec); err != nil {
		return NotebookEditValue{}, err
	}
	if s.withinBasis(out.Before) && s.withinBasis(out.After) {
		v.Before, v.After = &out.Before, &out.After
	}
	return v, nil
}

// readNotebook reads the notebook an edit changes, refusing one over notebook.MaxBytes before
// reading it: the file is never held whole past the cap, even when it grows while it is read.
func readNotebook(ctx context.Context, fsys fs.FileSystem, target fs.Target) (fs.ReadOutcome, error) {
	info, read, err := fs.StatText(ctx, fsys, target, notebook.MaxBytes+1)
	switch {
	case err != nil:
		return fs.ReadOutcome{}, err
	case info == nil:
		return fs.ReadOutcome{}, fs.ReadNotFound(target.DisplayPath, nil)
	case info.Type != fs.TypeFile:
		return fs.ReadOutcome{}, fs.ReadNotRegular(target.DisplayPath)
	case read == nil && !info.HasSize: // a provider without sizes: its read decides
		return fsys.ReadText(ctx, target)
	case read == nil:
		return fs.ReadOutcome{}, fs.EditTooLarge(target.DisplayPath, info.Size, notebook.MaxBytes)
	}
	return *read, nil
}

// applyNotebookEdit computes the edit on nb: the value (without the file texts) and the new text;
// changed is false for a replace that changes neither the source nor the type (nothing is written).
func applyNotebookEdit(nb *notebook.Notebook, in notebookEditInput, dp string) (v NotebookEditValue, text string, changed bool, err error) {
	v, text, err = notebookEditText(nb, in, dp)
	if err != nil {
		return v, "", false, err
	}
	same := in.mode == "replace" && *v.OldSource == *v.NewSource && v.OldType == ""
	return v, text, !same, nil
}

// notebookEditText is applyNotebookEdit's value and text.
func notebookEditText(nb *notebook.Notebook, in notebookEditInput, dp string) (NotebookEditValue, string, error) {
	v := NotebookEditValue{Path: dp, EditMode: in.mode, ByPosition: !nb.HasIDs()}
	at := -1
	if in.hasCellID {
		if at = nb.Find(in.cellID); at < 0 {
			return v, "", cellNotFound(nb, in.cellID, dp)
		}
	}
	switch in.mode {
	case "insert":
		typ := in.cellType
		if typ == "" {
			typ = notebook.TypeCode
		}
		id := ""
		if nb.HasIDs() {
			id = nb.NewID()
		}
		text, err := nb.Insert(at, typ, id, in.source)
		if err != nil {
			return v, "", err
		}
		v.CellID, v.CellType, v.NewSource = id, typ, &in.source
		if id == "" {
			v.CellID = "cell-" + strconv.Itoa(at+1)
		}
		if at >= 0 {
			v.AfterCell = nb.DisplayID(at)
		}
		return v, text, nil
	case "delete":
		c := nb.Cells[at]
		v.CellID, v.CellType, v.OldSource = nb.DisplayID(at), c.Type, &c.Source
		return v, nb.Delete(at), nil
	}
	c := nb.Cells[at]
	typ := in.cellType
	if typ == "" {
		typ = c.Type
	}
	text, err := nb.Replace(at, in.source, typ)
	if err != nil {
		return v, "", err
	}
	v.CellID, v.CellType, v.OldSource, v.NewSource = nb.DisplayID(at), typ, &c.Source, &in.source
	if typ != c.Type {
		v.OldType = c.Type
	}
	if typ == notebook.TypeCode && c.Type == notebook.TypeCode && in.source != c.Source {
		v.KeptOutputs = len(c.Outputs)
	}
	return v, text, nil
}

// cellNotFound is the refusal of a cell_id the notebook does not have, with the ids it has.
func cellNotFound(nb *notebook.Notebook, id, dp string) error {
	var ids []string
	for i := range nb.Cells {
		if i == 20 {
			ids = append(ids, "… ("+strconv.Itoa(len(nb.Cells)-20)+" more)")
			break
		}
		ids = append(ids, nb.DisplayID(i))
	}
	msg := notebookText.MustRender("notebook_edit.error.cell_not_found", "cell", id, "path", dp)
	if len(ids) == 0 {
		return errors.New(msg + "\n" + notebookText.Text("notebook_edit.error.cell_not_found.empty"))
	}
	return errors.New(msg + "\n" + notebookText.MustRender("notebook_edit.error.cell_not_found.ids", "ids", strings.Join(ids, ", ")))
}

// notebookDiffLines bounds the lines of the change a notebook_edit result shows.
const notebookDiffLines = 40

// RenderNotebookEdit renders the text of a notebook_edit (docs/notebooks.md "The result").
func RenderNotebookEdit(v NotebookEditValue) string {
	var b strings.Builder
	cell := []string{"type", v.CellType, "cell", v.CellID, "path", v.Path}
	switch v.EditMode {
	case "insert":
		if v.AfterCell != "" {
			b.WriteString(notebookText.MustRender("notebook_edit.inserted.after", append(cell, "after", v.AfterCell)...))
		} else {
			b.WriteString(notebookText.MustRender("notebook_edit.inserted.first", cell...))
		}
	case "delete":
		b.WriteString(notebookText.MustRender("notebook_edit.deleted", cell...))
	default:
		if v.OldSource != nil && v.NewSource != nil && *v.OldSource == *v.NewSource && v.OldType == "" {
			return notebookText.MustRender("notebook_edit.unchanged", "cell", v.CellID, "path", v.Path)
		}
		switch {
		case v.OldType == "":
			b.WriteString(notebookText.MustRender("notebook_edit.updated", cell...))
		case v.OldType == notebook.TypeCode:
			b.WriteString(notebookText.MustRender("notebook_edit.updated.retyped_code", append(cell, "old_type", v.OldType)...))
		default:
			b.WriteString(notebookText.MustRender("notebook_edit.updated.retyped", append(cell, "old_type", v.OldType)...))
		}
	}
	old, new := "", ""
	if v.OldSource != nil {
		old = *v.OldSource
	}
	if v.NewSource != nil {
		new = *v.NewSource
	}
	b.WriteString("\n")
	b.WriteString(sourceDiff(old, new))
	if v.KeptOutputs > 0 {
		b.WriteString("\n" + notebookText.MustRender("notebook_edit.kept_outputs", "n", strconv.Itoa(v.KeptOutputs)))
	}
	if v.ByPosition && v.EditMode != "replace" {
		b.WriteString("\n" + notebookText.Text("notebook_edit.by_position"))
	}
	return b.String()
}

// sourceDiff is the change of a cell's source as lines: "-" removed, "+" added, " " unchanged
// (filetool's line diff; up to two unchanged lines of context around each change, "…" between
// changes further apart), at most notebookDiffLines lines shown.
func sourceDiff(old, new string) string {
	if old == "" && new == "" {
		return "(empty source)"
	}
	var ops []string
	for _, run := range filetool.LineRuns(withFinalNewline(old), withFinalNewline(new)) {
		for _, l := range run.Lines {
			ops = append(ops, string(run.Op)+l)
		}
	}
	changed := func(i int) bool { return i >= 0 && i < len(ops) && ops[i][0] != ' ' }
	near := func(i int) bool {
		for d := -2; d <= 2; d++ {
			if changed(i + d) {
				return true
			}
		}
		return false
	}
	var lines []string
	gap := false
	for i, op := range ops {
		if !near(i) {
			gap = true
			continue
		}
		if gap && len(lines) > 0 {
			lines = append(lines, "…")
		}
		gap = false
		lines = append(lines, op)
	}
	if len(lines) == 0 {
		return "(source unchanged)"
	}
	if len(lines) > notebookDiffLines {
		more := len(lines) - notebookDiffLines
		lines = append(lines[:notebookDiffLines], "… ("+strconv.Itoa(more)+" more lines)")
	}
	return strings.Join(lines, "\n")
}

// withFinalNewline ends a non-empty source with a newline, so a last line compares equal with
// or without one.
func withFinalNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
