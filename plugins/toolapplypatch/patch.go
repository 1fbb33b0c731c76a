package toolapplypatch

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/internal/echo"
	"github.com/cordon-dev/cordon/internal/nearmiss"
	"github.com/cordon-dev/cordon/internal/patch"
	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the catalog name of the plugin that registers apply_patch (docs/apply_patch.md).
const ID = "tool-apply-patch"

// Config is the (empty) configuration of tool-apply-patch.
type Config struct{}

// Plugin registers apply_patch once the fs and tools services exist. It shares tool-fs's
// guards, sandbox escalation and error rendering through plugins/tools/filetool, and is a plugin of
// its own so that a composition offers it or not.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module contributes Plugin to the kernel catalog of an fx host.
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// suite is one loaded instance: what the file tools share, and the result budgets.
type suite struct {
	*filetool.Env
	budget filetool.Budget
}

func apply(kc *kernel.Context, _ Config) error {
	env, err := filetool.NewEnv(kc)
	if err != nil {
		return err
	}
	// The budgets of tool-fs's defaults (docs/tool-fs.md "The result budget"): valid, so no error.
	table, _ := filetool.NewBudget(ID, filetool.DefaultBudget, filetool.KnownBudgets[int64]())
	s := &suite{Env: env, budget: table}
	_, err = tools.Service.Must(kc).Register(kc, s.patchDefinition())
	return err
}

// The model-facing texts of apply_patch, from texts.json beside this file: the one place they are
// written (docs/texts.md; docs/apply_patch.md quotes them). The tests and the e2e scripts read and
// render the same file.
var (
	//go:embed texts.json
	textsJSON []byte
	patchText = texts.MustParse("plugins/toolapplypatch/texts.json", textsJSON)

	patchDescription = patchText.Template("apply_patch.description", "path_rule").Render(filetool.PathRule)
	summaryHead      = patchText.Text("apply_patch.success")
	summaryFile      = patchText.Template("apply_patch.success.file", "op", "path")
	summaryMore      = patchText.Template("apply_patch.success.more", "n")
	chunkHead        = patchText.Template("apply_patch.error.chunk", "quoted_path", "chunk", "chunks", "line")
	chunkContext     = patchText.Text("apply_patch.error.chunk.context")
	chunkExpected    = patchText.Text("apply_patch.error.chunk.expected")
)

var patchParameters = json.RawMessage(`{"type":"object","properties":{` +
	`"input":{"type":"string","description":"The entire patch, from *** Begin Patch to *** End Patch."}` +
	`},"required":["input"]}`)

// patchArgs are the arguments of apply_patch.
type patchArgs struct {
	Input         *string         `json:"input"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// PatchFile is one file a patch changed: its path as the patch names it (a move's destination),
// its display path, "A", "M" or "D", and the LF-normalized texts (nil when absent or too large).
type PatchFile struct {
	Path      string  `json:"path"`
	Display   string  `json:"displayPath"`
	Operation string  `json:"operation"`
	Before    *string `json:"before"`
	After     *string `json:"after"`
}

// PatchValue is the canonical value of apply_patch: every file it changed, in patch order, and
// the text the model receives.
type PatchValue struct {
	Files []PatchFile `json:"files"`
	Text  string      `json:"text"`
}

func (s *suite) patchDefinition() tools.Definition {
	return tools.Tool[patchArgs, PatchValue]{
		Name:        "apply_patch",
		Description: patchDescription,
		Parameters:  s.Sandbox.Parameters(patchParameters),
		Execute:     filetool.BudgetErrors(s.budget, s.applyPatch),
		Render: func(_ patchArgs, v PatchValue) []tools.Content {
			return []tools.Content{tools.TextContent(v.Text)}
		},
		PresentationMeta: func(_ patchArgs, v PatchValue) any {
			return patchMeta(v)
		},
		Annotations: tools.Annotations{Destructive: true},
	}.Definition()
}

// patchMeta is the diff meta of a patch (docs/apply_patch.md "Value and meta"): the hunks of every
// file in patch order, each under the path as the patch spells it (a move's destination), a new
// file diffed from "" and a deleted one to ""; a file whose texts are beyond the diff basis is
// left out.
func patchMeta(v PatchValue) filetool.DiffMeta {
	m := filetool.DiffMeta{Diffs: []filetool.FileDiff{}}
	for _, f := range v.Files {
		if f.Before == nil && f.After == nil {
			continue
		}
		var before, after string
		if f.Before != nil {
			before = *f.Before
		}
		if f.After != nil {
			after = *f.After
		}
		m.Diffs = append(m.Diffs, filetool.ComputeHunkDiffs(f.Path, before, after)...)
	}
	return m
}

// errPatchUnsupported refuses apply_patch over a filesystem without change sets.
var errPatchUnsupported = errors.New(patchText.Text("apply_patch.error.unsupported"))

// errPatchEmpty refuses a patch with no file operation.
var errPatchEmpty = errors.New(patchText.Text("apply_patch.error.empty"))

// patchTarget is one file of a patch once resolved.
type patchTarget struct {
	op     patch.Op
	target fs.Target
	move   *fs.Target
}

// applyPatch is the body of apply_patch (docs/apply_patch.md): parse, resolve every path as write
// resolves file_path, ask the observation policy for each file's guard, then hand the whole set
// to the provider, which publishes it all or nothing.
func (s *suite) applyPatch(ctx context.Context, args patchArgs, exec *tools.Exec) (PatchValue, error) {
	if args.Input == nil {
		return PatchValue{}, errors.New(patchText.Text("apply_patch.error.input_not_string"))
	}
	p, err := patch.Parse(*args.Input)
	if err != nil {
		return PatchValue{}, err
	}
	if len(p.Ops) == 0 {
		return PatchValue{}, errPatchEmpty
	}
	applier, ok := s.FS.(fs.ChangeSetApplier)
	if !ok {
		return PatchValue{}, errPatchUnsupported
	}
	policy, err := s.Sandbox.ResolvePolicy(ctx, "apply_patch", filetool.Escalation{Permissions: args.Permissions, Justification: args.Justification}, exec,
		filetool.Action{Files: approvalFiles(p.Ops)})
	if err != nil {
		return PatchValue{}, err
	}
	targets := make([]patchTarget, len(p.Ops))
	changes := make([]fs.Change, len(p.Ops))
	for i, op := range p.Ops {
		pt := patchTarget{op: op}
		if pt.target, err = s.resolvePatchPath(ctx, op.Path, policy, exec); err != nil {
			return PatchValue{}, err
		}
		if op.MoveTo != "" {
			t, err := s.resolvePatchPath(ctx, op.MoveTo, policy, exec)
			if err != nil {
				return PatchValue{}, err
			}
			pt.move = &t
		}
		if changes[i], err = s.patchChange(ctx, pt, policy, exec); err != nil {
			return PatchValue{}, err
		}
		targets[i] = pt
	}
	outs, err := applier.ApplyChanges(sandbox.WithPolicy(ctx, policy), changes)
	if err != nil {
		return PatchValue{}, s.MutationFailure(ctx, fs.VerbEdit, failedTarget(err, targets), policy, exec, err)
	}
	v := PatchValue{Files: make([]PatchFile, len(outs))}
	for i, out := range outs {
		pt := targets[i]
		f := PatchFile{Path: pt.op.Path, Display: out.Target.DisplayPath, Before: out.Before, After: out.After}
		switch {
		case out.Operation == fs.OperationDelete:
			f.Operation = "D"
			err = s.Observe(ctx, out.Target, fs.Absent(), exec)
		case pt.op.Kind == patch.Add:
			f.Operation = "A"
			err = s.Observe(ctx, out.Target, fs.Present(out.Version), exec)
		default:
			f.Operation = "M"
			var gone error
			if pt.move != nil {
				f.Path = pt.op.MoveTo
				if pt.move.Key != pt.target.Key {
					gone = s.Observe(ctx, pt.target, fs.Absent(), exec)
				}
			}
			err = errors.Join(gone, s.Observe(ctx, out.Target, fs.Present(out.Version), exec))
		}
		if err != nil {
			return PatchValue{}, err
		}
		v.Files[i] = f
	}
	v.Text = patchSummary(v.Files, s.budget.Of(exec))
	return v, nil
}

// approvalFiles are the files of an escalated patch for its approval prompt (docs/sandbox.md "The
// approval prompt"): every operation with its mode and what it would write, the new file's
// content for an add, each chunk's lines for an update.
func approvalFiles(ops []patch.Op) []tools.ApprovalFile {
	files := make([]tools.ApprovalFile, len(ops))
	for i, op := range ops {
		f := tools.ApprovalFile{Path: op.Path}
		switch {
		case op.Kind == patch.Add:
			f.Op, f.Preview = tools.FileAdd, op.Text()
		case op.Kind == patch.Delete:
			f.Op = tools.FileDelete
		default:
			f.Op, f.MoveTo, f.Preview = tools.FileUpdate, op.MoveTo, chunkPreview(op.Chunks)
			if op.MoveTo != "" {
				f.Op = tools.FileMove
			}
		}
		files[i] = f
	}
	return files
}

// chunkPreview shows an update's chunks: each one's @@ line, then its lines as a diff (the lines
// its old and new texts share at both ends with " ", the others with "-" and "+").
func chunkPreview(chunks []patch.Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("@@")
		if c.HasContext {
			b.WriteString(" " + c.Context)
		}
		b.WriteString("\n")
		head := 0
		for head < len(c.Old) && head < len(c.New) && c.Old[head] == c.New[head] {
			head++
		}
		tail := 0
		for tail < len(c.Old)-head && tail < len(c.New)-head && c.Old[len(c.Old)-1-tail] == c.New[len(c.New)-1-tail] {
			tail++
		}
		for _, l := range c.Old[:head] {
			b.WriteString(" " + l + "\n")
		}
		for _, l := range c.Old[head : len(c.Old)-tail] {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range c.New[head : len(c.New)-tail] {
			b.WriteString("+" + l + "\n")
		}
		for _, l := range c.Old[len(c.Old)-tail:] {
			b.WriteString(" " + l + "\n")
		}
	}
	return b.String()
}

// resolvePatchPath resolves a path of the patch as write resolves file_path.
func (s *suite) resolvePatchPath(ctx context.Context, path string, policy *sandbox.CallPolicy, exec *tools.Exec) (fs.Target, error) {
	t, err := s.FS.Resolve(ctx, path, fs.ResolveOptions{Cwd: filetool.MutationBase(policy, exec, path)})
	if err != nil {
		return fs.Target{}, err
	}
	if fs.NamesDirectory(path) {
		return fs.Target{}, fs.WriteDirectoryPath(t.DisplayPath)
	}
	return t, nil
}

// patchChange asks the observation policy for the guard of one file (edit's rule for the files
// the patch updates, moves or deletes, write's for the files it adds or a move replaces) and
// builds its change.
func (s *suite) patchChange(ctx context.Context, pt patchTarget, policy *sandbox.CallPolicy, exec *tools.Exec) (fs.Change, error) {
	args := fs.IntentArgs{Target: pt.target, Actor: exec}
	switch pt.op.Kind {
	case patch.Add:
		intent, err := fs.WriteIntentEvent.Run(ctx, s.KC, args, filetool.NoWriteIntent)
		if err != nil {
			return fs.Change{}, s.MutationFailure(ctx, fs.VerbWrite, pt.target, policy, exec, err)
		}
		return fs.Change{Kind: fs.ChangeWrite, Target: pt.target, Intent: intent, Content: pt.op.Text()}, nil
	}
	guard, err := fs.EditIntentEvent.Run(ctx, s.KC, args, filetool.NoEditGuard)
	if err != nil {
		if absent := s.notThere(sandbox.WithPolicy(ctx, policy), pt); absent != nil && fs.HasCode(err, fs.CodeNotObserved) {
			return fs.Change{}, absent
		}
		return fs.Change{}, s.MutationFailure(ctx, fs.VerbEdit, pt.target, policy, exec, err)
	}
	if pt.op.Kind == patch.Delete {
		return fs.Change{Kind: fs.ChangeDelete, Target: pt.target, Guard: guard}, nil
	}
	ch := fs.Change{Kind: fs.ChangeUpdate, Target: pt.target, Guard: guard, MoveTo: pt.move}
	display, chunks := pt.target.DisplayPath, pt.op.Chunks
	ch.Update = func(text string) (string, error) {
		out, err := patch.Apply(ctx, text, chunks)
		var ae *patch.ApplyError
		if errors.As(err, &ae) {
			return "", chunkNotFound(display, len(chunks), ae, text)
		}
		if err != nil && ctx.Err() != nil {
			return "", fs.Aborted(fs.VerbEdit, context.Cause(ctx))
		}
		return out, err
	}
	if pt.move != nil && pt.move.Key != pt.target.Key {
		intent, err := fs.WriteIntentEvent.Run(ctx, s.KC, fs.IntentArgs{Target: *pt.move, Actor: exec}, filetool.NoWriteIntent)
		if err != nil {
			return fs.Change{}, s.MutationFailure(ctx, fs.VerbWrite, *pt.move, policy, exec, err)
		}
		ch.MoveIntent = intent
	}
	return ch, nil
}

// patchRetryText ends a chunk refusal: nothing changed, and what to send (no re-read needed: the
// refusal shows the file's text).
var patchRetryText = patchText.Text("apply_patch.error.chunk.retry")

// expectedLineBytes bounds each line of the patch chunkNotFound repeats (docs/apply_patch.md
// "Errors"); the whole message is then cut to the result budget line by line.
const expectedLineBytes = 1000

// notThere is the documented refusal of an update or delete whose file is missing or not a
// regular file (docs/apply_patch.md "Errors"), which the read gate's "has not been read" would
// otherwise hide: no read could ever let the patch through. nil when the file is a regular file
// or cannot be examined.
func (s *suite) notThere(ctx context.Context, pt patchTarget) error {
	info, err := s.FS.Stat(ctx, pt.target)
	switch {
	case err != nil:
		return nil
	case info == nil && pt.op.Kind == patch.Delete:
		return fs.DeleteNotFound(pt.target.DisplayPath)
	case info == nil:
		return fs.UpdateNotFound(pt.target.DisplayPath)
	case info.Type == fs.TypeFile:
		return nil
	case pt.op.Kind == patch.Delete:
		return fs.DeleteNotRegular(pt.target.DisplayPath)
	}
	return fs.EditNotRegular(pt.target.DisplayPath)
}

// chunkNotFound is FS_EDIT_NOT_FOUND for a chunk that could not be located (docs/apply_patch.md
// "Errors"): the first line names the file and the chunk, the next ones what was sought and, as
// edit gives it, where the closest text of the file (text) is.
func chunkNotFound(display string, chunks int, ae *patch.ApplyError, text string) error {
	var b strings.Builder
	b.WriteString(chunkHead.Render(strconv.Quote(display), strconv.Itoa(ae.Chunk+1), strconv.Itoa(chunks), strconv.Itoa(ae.Line)))
	if ae.HasContext {
		b.WriteString("\n" + chunkContext + "\n" + echo.String(ae.Context, expectedLineBytes))
	} else {
		b.WriteString("\n" + chunkExpected)
		for _, l := range ae.Expected {
			b.WriteString("\n" + echo.String(l, expectedLineBytes))
		}
	}
	if !ae.HasContext && len(ae.Expected) > 0 && len(text) <= nearmiss.MaxBytes {
		if near := nearmiss.Explain(nearmiss.Find(text, strings.Join(ae.Expected, "\n")), text); near != "" {
			b.WriteString("\n" + near)
		}
	}
	b.WriteString("\n" + patchRetryText)
	return fs.NewError(fs.CodeEditNotFound, b.String(), nil)
}

// failedTarget returns the file a change-set failure names (its message quotes the display
// path), for the model-facing rewrite of FS_NOT_OBSERVED; the first file when none matches.
func failedTarget(err error, targets []patchTarget) fs.Target {
	msg := err.Error()
	for _, pt := range targets {
		for _, t := range []*fs.Target{&pt.target, pt.move} {
			if t != nil && strings.Contains(msg, strconv.Quote(t.DisplayPath)) {
				return *t
			}
		}
	}
	return targets[0].target
}

// patchSummary is the success text (docs/apply_patch.md "Success"): the header, then "A", "M"
// and "D" lines in that order, cut to max bytes with a last line counting what was left out.
func patchSummary(files []PatchFile, max int) string {
	lines := []string{summaryHead}
	for _, op := range []string{"A", "M", "D"} {
		for _, f := range files {
			if f.Operation == op {
				lines = append(lines, summaryFile.Render(op, f.Path))
			}
		}
	}
	text := strings.Join(lines, "\n")
	if len(text) <= max {
		return text
	}
	const reserve = 64 // room for the last line
	cut := filetool.CutLines(text, max-reserve)
	kept := strings.Count(cut, "\n")
	return cut + "\n" + summaryMore.RenderInts(len(lines)-1-kept)
}
