package sandbox

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
)

// PolicyService is the sandbox policy service ("sandboxPolicy"), provided by the "sandbox-policy"
// plugin: the single owner of the deployment default mode, the fallback workspace root, the
// per-session override and per-call resolution (docs/sandbox.md "Modes and the policy").
var PolicyService = kernel.NewService[Policy]("sandboxPolicy")

// Policy resolves the execution policy of one confined call.
type Policy interface {
	// DefaultMode is the configured deployment default mode.
	DefaultMode() Mode
	// WorkspaceRoot is the absolute configured fallback workspace root.
	WorkspaceRoot() string
	// Resolve returns the execution policy of one call. session nil means an agentless call
	// (no SessionID, the configured root); explicit "" means no explicit mode, so the session
	// override, else DefaultMode, applies. WorkspaceRoot is canonicalized on every call.
	Resolve(session Session, explicit Mode) CallPolicy
	// OverrideOf returns the session's override mode, if one was set.
	OverrideOf(session Session) (Mode, bool)
	// SetMode records a session override (the last one wins); an unknown mode is
	// refused.
	SetMode(session Session, mode Mode) error
}

type callPolicyKey struct{}

// WithPolicy returns ctx carrying policy as the execution policy of the call it is passed to: a
// confining filesystem (Confiner) enforces it on the WriteText, EditText, ApplyChanges or Restore
// that receives ctx. nil leaves the provider's default in force.
func WithPolicy(ctx context.Context, policy *CallPolicy) context.Context {
	if policy == nil {
		return ctx
	}
	return context.WithValue(ctx, callPolicyKey{}, policy)
}

// PolicyFrom returns the policy WithPolicy put on ctx, or nil (the provider's default).
func PolicyFrom(ctx context.Context) *CallPolicy {
	p, _ := ctx.Value(callPolicyKey{}).(*CallPolicy)
	return p
}
