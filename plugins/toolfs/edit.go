package toolfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func (s *suite) editDefinition() tools.Definition {
	return tools.Tool[editArgs, EditValue]{
		Name:        "edit",
		Description: editDescription,
		Parameters:  s.ft.Sandbox.Parameters(editParameters),
		Execute:     filetool.BudgetErrors(s.caps.budget, s.edit),
		Render: func(a editArgs, v EditValue) []tools.Content {
			return []tools.Content{tools.TextContent(RenderEdit(v, a.ReplaceAll != nil && *a.ReplaceAll) + elsewhereNote(v.Elsewhere) + v.Prefixed)}
		},
		PresentationMeta: func(a editArgs, v EditValue) any {
			if v.Before == nil || v.After == nil {
				return DiffMeta{Diffs: []FileDiff{}}
			}
			return DiffMeta{Diffs: filetool.ComputeHunkDiffs(a.FilePath, *v.Before, *v.After)}
		},
		Guidance:    editGuidance(),
		Annotations: tools.Annotations{Destructive: true},
	}.Definition()
}

// edit is the body of the edit tool: no Stat; the guard comes from the single-slot
// fs/edit-intent waterfall (which may refuse), and both the refusal and the provider's failure are
// remediated for the model.
func (s *suite) edit(ctx context.Context, args editArgs, exec *tools.Exec) (EditValue, error) {
	in, err := parseEditArgs(args)
	if err != nil {
		return EditValue{}, err
	}
	start, err := s.ft.StartEdit(ctx, "edit", filetool.Escalation{Permissions: args.Permissions, Justification: args.Justification}, exec, editAction(in), in.filePath)
	if err != nil {
		return EditValue{}, err
	}
	policy, target, guard := start.Policy, start.Target, start.Guard
	req := fs.EditRequest{OldString: in.oldString, NewString: in.newString, ReplaceAll: in.replaceAll}
	out, err := s.fs.EditText(sandbox.WithPolicy(ctx, policy), target, req, guard)
	if err != nil {
		return EditValue{}, s.ft.MutationFailure(ctx, fs.VerbEdit, target, policy, exec, s.editGuidance(ctx, target, in, err))
	}
	if err := s.ft.Observe(ctx, target, presentAfter(out.Version, out.Text, out.HasText), exec); err != nil {
		return EditValue{}, err
	}
	v := EditValue{Path: target.DisplayPath, Elsewhere: out.Elsewhere, Prefixed: newPrefixesNote(in.oldString, in.newString)}
	if in.replaceAll {
		v.Replaced = replacedNote(out.Before, in.oldString, in.newString)
	}
	if s.withinBasis(out.Before) && s.withinBasis(out.After) {
		v.Before, v.After = &out.Before, &out.After
	}
	return v, nil
}

// withinBasis reports whether a mutation's text is below the provider's diff basis bound
// (fs.DefaultDiffBasisMaxBytes when the provider does not say), so a value may carry it.
func (s *suite) withinBasis(text string) bool {
	limit := fs.DefaultDiffBasisMaxBytes
	if b, ok := s.fs.(fs.DiffBasisBounder); ok {
		limit = b.DiffBasisMaxBytes()
	}
	return int64(len(text)) < limit
}

// presentAfter is the observation a mutation leaves: present at v, having seen text whole when
// the provider told it (the model knows the file it wrote), else at v alone.
func presentAfter(v fs.Version, text string, hasText bool) fs.Observation {
	if !hasText {
		return fs.Present(v)
	}
	return fs.PresentSeen(v, seen.Whole(text))
}

// editAction describes an edit for the approval prompt of its escalation.
func editAction(in editInput) filetool.Action {
	old := "Old string"
	if in.replaceAll {
		old += " (every occurrence)"
	}
	return filetool.Action{FilePath: in.filePath, Previews: []tools.ApprovalPreview{{Label: old, Text: in.oldString}, {Label: "New string", Text: in.newString}}}
}
