package toolfs

import (
	"context"
	"strings"

	"github.com/cordon-dev/cordon/internal/elision"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func (s *suite) writeDefinition() tools.Definition {
	return tools.Tool[writeArgs, WriteValue]{
		Name:        "write",
		Description: writeDescription,
		Parameters:  s.ft.Sandbox.Parameters(writeParameters),
		Execute:     filetool.BudgetErrors(s.caps.budget, s.write),
		Render: func(_ writeArgs, v WriteValue) []tools.Content {
			return []tools.Content{tools.TextContent(RenderWrite(v))}
		},
		PresentationMeta: func(a writeArgs, v WriteValue) any {
			if v.Before == nil || v.After == nil {
				return DiffMeta{Diffs: []FileDiff{}}
			}
			return DiffMeta{Diffs: filetool.ComputeHunkDiffs(a.FilePath, *v.Before, *v.After)}
		},
		Guidance:    writeGuidance(),
		Annotations: tools.Annotations{Destructive: true},
	}.Definition()
}

// write is the body of the write tool: no Stat; a file_path that names a directory (see
// fs.NamesDirectory) is refused; the intent comes from the single-slot fs/write-intent waterfall
// (nil without a decider: an unconditional atomic write).
func (s *suite) write(ctx context.Context, args writeArgs, exec *tools.Exec) (WriteValue, error) {
	in, err := parseWriteArgs(args)
	if err != nil {
		return WriteValue{}, err
	}
	policy, err := s.ft.Sandbox.ResolvePolicy(ctx, "write", filetool.Escalation{Permissions: args.Permissions, Justification: args.Justification}, exec,
		filetool.Action{FilePath: in.filePath, Previews: []tools.ApprovalPreview{{Label: "Content", Text: in.content}}})
	if err != nil {
		return WriteValue{}, err
	}
	target, err := s.fs.Resolve(ctx, in.filePath, fs.ResolveOptions{Cwd: filetool.MutationBase(policy, exec, in.filePath)})
	if err != nil {
		return WriteValue{}, err
	}
	if fs.NamesDirectory(in.filePath) {
		// The display path has lost the spelling: refuse before anything could
		// create a regular file under the directory's name.
		return WriteValue{}, fs.WriteDirectoryPath(target.DisplayPath)
	}
	intent, err := fs.WriteIntentEvent.Run(ctx, s.kc, fs.IntentArgs{Target: target, Actor: exec}, filetool.NoWriteIntent)
	if err != nil {
		return WriteValue{}, s.ft.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	if err := s.guardDrop(sandbox.WithPolicy(ctx, policy), target, in.content, intent, exec); err != nil {
		return WriteValue{}, err
	}
	out, err := s.fs.WriteText(sandbox.WithPolicy(ctx, policy), target, in.content, intent)
	if err != nil {
		return WriteValue{}, s.ft.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	// The file holds content byte for byte (a BOM aside): the model has seen it whole.
	if err := s.ft.Observe(ctx, target, presentAfter(out.Version, strings.TrimPrefix(in.content, "\uFEFF"), true), exec); err != nil {
		return WriteValue{}, err
	}
	v := WriteValue{Path: target.DisplayPath, Operation: string(out.Operation), Before: out.Before, After: &out.After,
		Lines: elision.Lines(out.After), LinesBefore: -1}
	if out.Before != nil {
		v.LinesBefore = elision.Lines(*out.Before)
	}
	if !s.withinBasis(out.After) {
		v.After = nil
	}
	return v, nil
}
