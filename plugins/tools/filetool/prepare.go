package filetool

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// EditStart is what an edit of one file holds before the provider's EditText: the call's
// sandbox policy, the resolved target and the guard of fs/edit-intent.
type EditStart struct {
	Policy *sandbox.CallPolicy
	Target fs.Target
	Guard  *fs.EditGuard
}

// StartEdit runs the steps of edit before the provider's edit (docs/tool-fs.md "edit"): the
// sandbox step for tool with the call's escalation, resolving path against the mutation base,
// and the single-slot fs/edit-intent waterfall, whose refusal is remediated for the model.
func (e *Env) StartEdit(ctx context.Context, tool string, esc Escalation, exec *tools.Exec, action Action, path string) (EditStart, error) {
	policy, err := e.Sandbox.ResolvePolicy(ctx, tool, esc, exec, action)
	if err != nil {
		return EditStart{}, err
	}
	target, err := e.FS.Resolve(ctx, path, fs.ResolveOptions{Cwd: MutationBase(policy, exec, path)})
	if err != nil {
		return EditStart{}, err
	}
	guard, err := fs.EditIntentEvent.Run(ctx, e.KC, fs.IntentArgs{Target: target, Actor: exec}, NoEditGuard)
	if err != nil {
		return EditStart{}, e.MutationFailure(ctx, fs.VerbEdit, target, policy, exec, err)
	}
	return EditStart{Policy: policy, Target: target, Guard: guard}, nil
}
