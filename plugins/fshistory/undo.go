package fshistory

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// undoDescription is what the model reads of undo (docs/history.md "The undo tool"), from the texts
// file of the history package (history.Texts, docs/texts.md).
var undoDescription = history.Texts.Text("undo.description")

var undoParameters = json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string","description":"The file to restore. ` + filetool.PathRule + `"}},"required":["file_path"]}`)

type undoArgs struct {
	FilePath string `json:"file_path"`
}

// UndoValue is the canonical value of undo.
type UndoValue struct {
	FilePath string `json:"file_path"`
	// Change is the id of the change undone; Before its time; Tool what made it.
	Change  string `json:"change"`
	Tool    string `json:"tool"`
	Before  string `json:"before"`
	Removed bool   `json:"removed"`
	Text    string `json:"text"`
}

func (r *recorder) undoDefinition() tools.Definition {
	return tools.Tool[undoArgs, UndoValue]{
		Name:        "undo",
		Description: undoDescription,
		Parameters:  undoParameters,
		Execute:     r.undo,
		Render: func(_ undoArgs, v UndoValue) []tools.Content {
			return []tools.Content{tools.TextContent(v.Text)}
		},
		Annotations: tools.Annotations{Destructive: true},
	}.Definition()
}

func (r *recorder) undo(ctx context.Context, in undoArgs, exec *tools.Exec) (UndoValue, error) {
	sel := history.Selector{}
	cwd := ""
	if exec.Session != nil {
		sel.Session, cwd = exec.Session.ID(), exec.Session.Cwd()
	}
	var policy *sandbox.CallPolicy
	if _, confines := sandbox.ConfiningMode(r.fs); confines {
		if p, ok := sandbox.PolicyService.Get(r.kc); ok && p != nil {
			var s sandbox.Session
			if exec.Session != nil {
				s = exec.Session
			}
			standing := p.Resolve(s, "")
			policy = &standing
			if standing.WorkspaceRoot != "" {
				cwd = standing.WorkspaceRoot
			}
		}
	}
	t, err := r.fs.Resolve(ctx, in.FilePath, fs.ResolveOptions{Cwd: cwd})
	if err != nil {
		return UndoValue{}, err
	}
	sel.Target = t
	if ws, err := r.fs.Resolve(ctx, ".", fs.ResolveOptions{Cwd: cwd}); err == nil {
		sel.Root = r.fs.ProcessPath(ws) // the folders a creation made go only beneath the workspace
	}
	u, err := history.Undo(sandbox.WithPolicy(ctx, policy), r.fs, r.store, sel)
	if err != nil {
		return UndoValue{}, err
	}
	text := u.Text()
	if f := u.FoldersText(); f != "" {
		text += "\n" + f
	}
	text += r.sameGroup(u) + r.nextUndo(u, sel.Session)
	return UndoValue{FilePath: u.Display, Change: u.Change.ID, Tool: u.Change.By(), Before: u.Change.Stamp(), Removed: u.Removed, Text: text}, nil
}

// sameGroup is the line after an undo of one file of a change group (the files of one
// apply_patch): the group's other files, and whether they are still as it left them (undo each)
// or were undone already (docs/history.md "The undo tool"). "" for a change alone in its group, or
// one recorded before groups were kept.
func (r *recorder) sameGroup(u history.Undone) string {
	g := u.Change.Group
	if g == "" {
		return ""
	}
	recs, err := r.store.List(history.Match{Group: g}, func(rec *history.Record) bool {
		return rec.ID != u.Change.ID && rec.Key != u.Change.Key && rec.Undoes == ""
	})
	if err != nil || len(recs) == 0 {
		return ""
	}
	var left, undone []string
	for i := len(recs) - 1; i >= 0; i-- { // in the order the call changed them
		if recs[i].UndoneBy == "" {
			left = append(left, quote(recs[i].Display))
		} else {
			undone = append(undone, quote(recs[i].Display))
		}
	}
	by, t := u.Change.By(), history.Texts
	if len(left) == 0 {
		return "\n" + t.MustRender("undo.group.all_undone", "tool", by, "files", strings.Join(undone, ", "))
	}
	key := "undo.group.left.many"
	if len(left) == 1 {
		key = "undo.group.left.one"
	}
	s := "\n" + t.MustRender(key, "tool", by, "files", strings.Join(left, ", "))
	if len(undone) > 0 {
		s += t.MustRender("undo.group.undone_too", "files", strings.Join(undone, ", "))
	}
	return s
}

func quote(s string) string { return `"` + s + `"` }

// nextUndo is the line after an undo's text: what the history holds next for the file in this
// session (what another undo would restore), or that it holds nothing more (docs/history.md "The
// undo tool").
func (r *recorder) nextUndo(u history.Undone, session string) string {
	recs, err := r.store.List(history.Match{Key: u.Change.Key}, func(rec *history.Record) bool {
		return rec.ID != u.Change.ID && rec.Session == session && rec.Undoes == "" && rec.UndoneBy == ""
	})
	switch {
	case err != nil:
		return ""
	case len(recs) == 0:
		return "\n" + history.Texts.Text("undo.next.none")
	}
	return "\n" + history.Texts.MustRender("undo.next.again", "tool", recs[0].By(), "time", recs[0].Stamp())
}
