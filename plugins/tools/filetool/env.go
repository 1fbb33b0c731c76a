package filetool

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Env is what a file tool's calls use of the plugin instance that registered it: the instance's
// context, the mounted filesystem and the sandbox hook chosen for it at load.
type Env struct {
	KC      *kernel.Context
	FS      fs.FileSystem
	Sandbox Sandbox
}

// NewEnv returns the Env of an instance over the mounted fs service, its sandbox hook chosen by
// NewSandbox (whose refusal fails the load). A plugin calls it once, in its apply function (the
// plugin depends on fs.Service and tools.Service):
//
//	env, err := filetool.NewEnv(kc)
//	if err != nil {
//		return err
//	}
func NewEnv(kc *kernel.Context) (*Env, error) {
	fsys := fs.Service.Must(kc)
	hook, err := NewSandbox(kc, fsys)
	if err != nil {
		return nil, err
	}
	return &Env{KC: kc, FS: fsys, Sandbox: hook}, nil
}

// Observe emits fs/observed with the call's execution as the actor: what the model now knows of
// target, which the observation policy's read gate checks on a later mutation. A listener's error
// fails the call (the contract: recorders are side-effect-only and should not fail).
//
//	err := env.Observe(ctx, target, fs.Present(out.Version), exec)
func (e *Env) Observe(ctx context.Context, target fs.Target, obs fs.Observation, exec *tools.Exec) error {
	return fs.ObservedEvent.Emit(ctx, e.KC, fs.ObservedArgs{Target: target, Observation: obs, Actor: exec})
}

// NoWriteIntent is the default of fs/write-intent: no guard.
func NoWriteIntent() (*fs.WriteIntent, error) { return nil, nil }

// NoEditGuard is the default of fs/edit-intent: no guard.
func NoEditGuard() (*fs.EditGuard, error) { return nil, nil }

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
