package filetool

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ReadContext returns ctx carrying the standing sandbox policy of the call's session
// (sandbox.WithPolicy), as a mutation's context carries it: a read, listing or search then meets
// the session's roots (its cwd as the workspace, and the roots its client named), not the agentless
// policy's (docs/sandbox.md "Roots"). ctx is returned unchanged for a call without a session, a
// filesystem that does not confine, or a composition without a policy service.
//
//	ctx = filetool.ReadContext(ctx, kc, fsys, exec)
//	out, err := fsys.ReadText(ctx, target)
func ReadContext(ctx context.Context, kc *kernel.Context, fsys fs.FileSystem, exec *tools.Exec) context.Context {
	if exec == nil || exec.Session == nil {
		return ctx
	}
	if _, confines := sandbox.ConfiningMode(fsys); !confines {
		return ctx
	}
	policy, ok := sandbox.PolicyService.Get(kc)
	if !ok || policy == nil {
		return ctx
	}
	standing := policy.Resolve(exec.Session, "")
	return sandbox.WithPolicy(ctx, &standing)
}

// ReadContext is the package's ReadContext for the env's filesystem.
func (e *Env) ReadContext(ctx context.Context, exec *tools.Exec) context.Context {
	return ReadContext(ctx, e.KC, e.FS, exec)
}
