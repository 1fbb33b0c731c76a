package toolfs

import (
	"context"
	"encoding/json"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// sandboxHook is where write and edit consult the sandbox (spec 4.10): it resolves the per-call
// policy before anything executes (escalation pairing, approval) and rewrites FS_SANDBOX_DENIED
// failures into the sandbox marker text. The policy's WorkspaceRoot, when set, replaces the session
// cwd as the resolve base, and the policy is passed to WriteText/EditText.
//
// This build has no confining provider yet: the hook resolves no policy and maps nothing, which
// is the behaviour of a non-confining provider; escalation arguments are still validated and then
// refused (tools.spec.ts "sandbox_permissions under a non-confining backend fails closed").
type sandboxHook interface {
	// resolvePolicy returns the policy of one write or edit call (nil: the backend default).
	resolvePolicy(ctx context.Context, tool string, args json.RawMessage, exec *tools.Exec) (*fs.SandboxPolicy, error)
	// mapError rewrites a mutation failure under policy; other errors pass through unchanged.
	mapError(err error, policy *fs.SandboxPolicy) error
}

// noSandbox is the hook of a composition without sandbox support.
type noSandbox struct{}

var _ sandboxHook = noSandbox{}

func (noSandbox) resolvePolicy(_ context.Context, _ string, args json.RawMessage, _ *tools.Exec) (*fs.SandboxPolicy, error) {
	esc, err := parseEscalationArgs(args)
	if err != nil {
		return nil, err
	}
	if esc.requested() {
		return nil, errEscalationUnavailable
	}
	return nil, nil
}

func (noSandbox) mapError(err error, _ *fs.SandboxPolicy) error { return err }

// mutationBase returns the directory a write or edit resolves against: the policy's workspace
// root when a policy names one, else the session cwd (spec 4.4).
func mutationBase(policy *fs.SandboxPolicy, exec *tools.Exec, path string) string {
	if policy != nil && policy.WorkspaceRoot != "" {
		return policy.WorkspaceRoot
	}
	return sessionCwd(exec.Header().Cwd, path)
}
