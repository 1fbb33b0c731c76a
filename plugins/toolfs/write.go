package toolfs

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

func (s *suite) writeDefinition() tools.Definition {
	return tools.Definition{
		Name:         "write",
		Description:  writeDescription,
		Parameters:   s.sandbox.parameters(writeParameters),
		OutputSchema: writeOutputSchema,
		Execute:      s.write,
		Render: func(_ json.RawMessage, value any) []tools.Content {
			return []tools.Content{tools.TextContent(RenderWrite(asValue[WriteValue](value)))}
		},
		PresentationMeta: func(args json.RawMessage, value any) any {
			v := asValue[WriteValue](value)
			if v.Before == nil || v.After == nil {
				return DiffMeta{Diffs: []FileDiff{}}
			}
			return DiffMeta{Diffs: ComputeHunkDiffs(rawFilePath(args), *v.Before, *v.After)}
		},
		Guidance:    writeGuidance(),
		Annotations: tools.Annotations{Destructive: true},
	}
}

// write is the body of the write tool: no Stat; a file_path that names a directory (see
// fs.NamesDirectory) is refused; the intent comes from the single-slot fs/write-intent waterfall
// (nil without a decider: an unconditional atomic write).
func (s *suite) write(ctx context.Context, args json.RawMessage, exec *tools.Exec) (any, error) {
	in, err := parseWriteArgs(args)
	if err != nil {
		return nil, err
	}
	policy, err := s.sandbox.resolvePolicy(ctx, "write", args, exec,
		escalatedAction{filePath: in.filePath, previews: []tools.ApprovalPreview{{Label: "Content", Text: in.content}}})
	if err != nil {
		return nil, err
	}
	target, err := s.fs.Resolve(ctx, in.filePath, fs.ResolveOptions{Cwd: mutationBase(policy, exec, in.filePath)})
	if err != nil {
		return nil, err
	}
	if fs.NamesDirectory(in.filePath) {
		// The display path has lost the spelling: refuse before anything could
		// create a regular file under the directory's name.
		return nil, fs.WriteDirectoryPath(target.DisplayPath)
	}
	intent, err := fs.WriteIntentEvent.Run(ctx, s.kc, fs.IntentArgs{Target: target, Actor: exec}, noWriteIntent)
	if err != nil {
		return nil, s.mutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	out, err := s.fs.WriteText(ctx, target, in.content, intent, policy)
	if err != nil {
		return nil, s.mutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	if err := s.observe(ctx, target, fs.Present(out.Version), exec); err != nil {
		return nil, err
	}
	v := WriteValue{Path: target.DisplayPath, Operation: string(out.Operation), Before: out.Before, After: &out.After}
	if !s.withinBasis(out.After) {
		v.After = nil
	}
	return v, nil
}

// noWriteIntent is the default of fs/write-intent: no guard.
func noWriteIntent() (*fs.WriteIntent, error) { return nil, nil }
