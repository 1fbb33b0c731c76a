package sandbox

import "context"

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
