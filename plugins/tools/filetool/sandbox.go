package filetool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// errSandboxPolicyMissing fails the load of a confining composition without a policy service.
var errSandboxPolicyMissing = errors.New("tool-fs: the mounted filesystem confines but no sandbox policy service is composed")

// Sandbox is where write and edit consult the sandbox (docs/tool-fs.md "Sandbox escalation"):
// it decides the write and edit parameters, resolves the per-call policy before anything executes
// (escalation pairing, approval) and rewrites FS_SANDBOX_DENIED failures into the sandbox marker
// text. The policy's WorkspaceRoot, when set, replaces the session cwd as the resolve base, and the
// policy rides the mutation's context (sandbox.WithPolicy).
//
// The hook is chosen once, at load, from the mounted filesystem's capability fact
// (sandbox.ConfiningMode: does it implement sandbox.Confiner): noSandbox when it never confines,
// confiningSandbox otherwise.
type Sandbox interface {
	// parameters returns the parameter schema of write or edit from its base schema.
	Parameters(base json.RawMessage) json.RawMessage
	// ResolvePolicy returns the policy of one write or edit call (nil: the backend default);
	// action describes the call for the approval prompt of an escalation.
	ResolvePolicy(ctx context.Context, tool string, esc Escalation, exec *tools.Exec, action Action) (*sandbox.CallPolicy, error)
	// MapError rewrites a mutation failure of display path p under policy; other errors pass
	// through unchanged. ctx tells whether the call has an approval channel
	// (tools.ApprovalChannelOf).
	MapError(ctx context.Context, err error, p string, policy *sandbox.CallPolicy) error
}

// NewSandbox returns the hook for the mounted filesystem fsys: noSandbox when it does not
// confine; otherwise a confiningSandbox over the composed sandbox.PolicyService, whose absence
// fails the load with `tool-fs: the mounted filesystem confines but no sandbox policy service is
// composed`.
func NewSandbox(kc *kernel.Context, fsys fs.FileSystem) (Sandbox, error) {
	mode, confines := sandbox.ConfiningMode(fsys)
	if !confines {
		return noSandbox{}, nil
	}
	if _, err := currentPolicy(kc); err != nil {
		return nil, err
	}
	return &confiningSandbox{kc: kc, fs: fsys, defaultMode: mode}, nil
}

// currentPolicy returns the composed policy service, or errSandboxPolicyMissing.
func currentPolicy(kc *kernel.Context) (sandbox.Policy, error) {
	policy, ok := sandbox.PolicyService.Get(kc)
	if !ok || policy == nil {
		return nil, errSandboxPolicyMissing
	}
	return policy, nil
}

// noSandbox is the hook of a filesystem that never confines: no escalation fields, no policy,
// nothing mapped. Escalation arguments are still validated and then refused (a non-confining
// backend fails closed).
type noSandbox struct{}

var _ Sandbox = noSandbox{}

func (noSandbox) Parameters(base json.RawMessage) json.RawMessage { return base }

func (noSandbox) ResolvePolicy(_ context.Context, _ string, esc Escalation, _ *tools.Exec, _ Action) (*sandbox.CallPolicy, error) {
	esc, err := checkEscalationArgs(esc)
	if err != nil {
		return nil, err
	}
	if esc.requested() {
		return nil, errEscalationUnavailable
	}
	return nil, nil
}

func (noSandbox) MapError(_ context.Context, err error, _ string, _ *sandbox.CallPolicy) error {
	return err
}

// confiningSandbox is the hook of a confining filesystem (docs/tool-fs.md "Sandbox escalation").
//
// The policy service is probed on every call, like the approval service: a policy plugin that
// was reloaded is used at once, and one that went away (tool-fs does not inject it, so it stays
// loaded) fails the call closed with the load-time text before anything executes.
type confiningSandbox struct {
	kc          *kernel.Context
	fs          fs.FileSystem // the mounted filesystem, to resolve an escalated call's path
	defaultMode sandbox.Mode  // the provider's SandboxMode, used only if a denial has no policy
}

var _ Sandbox = (*confiningSandbox)(nil)

// parameters appends sandbox_permissions (the full EscalationTargets enum) and justification
// to the base properties; neither is required.
func (*confiningSandbox) Parameters(base json.RawMessage) json.RawMessage {
	return withEscalationFields(base)
}

// ResolvePolicy validates the escalation pairing, resolves the standing policy of the calling
// session (the agentless policy without one) and, when both escalation arguments are present,
// runs sandbox.ApproveEscalation through the composed approval service (probed per call), with
// the action's resolved path and previews for the prompt: a grant replaces only the mode, for this
// call alone; nothing is recorded.
func (c *confiningSandbox) ResolvePolicy(ctx context.Context, tool string, esc Escalation, exec *tools.Exec, action Action) (*sandbox.CallPolicy, error) {
	esc, err := checkEscalationArgs(esc)
	if err != nil {
		return nil, err
	}
	policy, err := currentPolicy(c.kc)
	if err != nil {
		return nil, err
	}
	var session *tools.Session
	var callID string
	if exec != nil {
		session, callID = exec.Session, exec.CallID
	}
	standing := policy.Resolve(sandboxSession(session), "")
	if !esc.requested() {
		return &standing, nil
	}
	route := sandbox.EscalationApproval{Agent: session != nil}
	details := c.describe(ctx, action, &standing, exec)
	if a, ok := tools.Approval.Get(c.kc); ok && a != nil {
		route.Asker = &approvalAsker{approver: a, req: tools.ApprovalRequest{Session: session, ToolName: tool, CallID: callID, Details: &details}}
	}
	granted, err := sandbox.ApproveEscalation(ctx,
		sandbox.EscalationRequest{Requested: esc.mode(), Justification: esc.justification(), Effective: standing.Mode, Subject: sandbox.SubjectOperation},
		route)
	if err != nil {
		return nil, err
	}
	standing.Mode = granted
	return &standing, nil
}

// MapError rewrites an FS_SANDBOX_DENIED failure into the model-facing denial (docs/tool-fs.md
// "Sandbox escalation"), still FS_SANDBOX_DENIED, with the original error as the cause: the
// marker of the mode stamped on the call; then the escalation hint, unless the host said the call
// has no approval channel (tools.ApprovalChannelOf); then the path and the writable roots; and,
// without a channel, how the user widens the roots (sandbox.WidenHint). Anything else is returned
// unchanged.
func (c *confiningSandbox) MapError(ctx context.Context, err error, p string, policy *sandbox.CallPolicy) error {
	var fe *fs.Error
	if !errors.As(err, &fe) || fe.Kind != fs.CodeSandboxDenied {
		return err
	}
	mode := c.defaultMode
	if policy != nil {
		mode = policy.Mode
	}
	has, known := tools.ApprovalChannelOf(ctx)
	text := sandbox.DenialMarker(mode)
	if has || !known {
		text += "\n" + sandbox.EscalationHint(sandbox.SubjectOperation)
	}
	if policy != nil && policy.Mode == sandbox.WorkspaceWrite {
		roots, _ := sandbox.WritableRoots(*policy)
		text += "\n" + `cannot write "` + p + `": it is outside the writable roots, or under a protected path (.git); writable roots:`
		for _, r := range roots {
			text += "\n  " + r
		}
	}
	if known && !has {
		text += "\n" + sandbox.WidenHint
	}
	return fs.NewError(fs.CodeSandboxDenied, text, err)
}

// The descriptions of the escalation parameters (docs/tool-fs.md "Sandbox escalation", verbatim).
const (
	sandboxPermissionsDescription = "The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval."
	justificationDescription      = "Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access."
)

// escalationProperties is the JSON text of the two escalation properties.
var escalationProperties = func() []byte {
	enum, _ := json.Marshal(sandbox.EscalationTargets)
	desc1, _ := json.Marshal(sandboxPermissionsDescription)
	desc2, _ := json.Marshal(justificationDescription)
	return []byte(`"sandbox_permissions":{"type":"string","enum":` + string(enum) + `,"description":` + string(desc1) + `},` +
		`"justification":{"type":"string","description":` + string(desc2) + `}`)
}()

// propertiesEnd is where the properties object of the write and edit schemas closes.
var propertiesEnd = []byte(`},"required":`)

// withEscalationFields returns base with the escalation properties appended after its own
// properties (property order is part of the schema text). base is one of this package's
// parameter schemas, whose properties object is followed by "required".
func withEscalationFields(base json.RawMessage) json.RawMessage {
	i := bytes.LastIndex(base, propertiesEnd)
	if i < 0 {
		return base
	}
	out := make([]byte, 0, len(base)+len(escalationProperties)+1)
	out = append(out, base[:i]...)
	out = append(out, ',')
	out = append(out, escalationProperties...)
	return append(out, base[i:]...)
}

// MutationBase returns the directory a write or edit resolves against: the policy's workspace
// root when a policy names one, else the session cwd (docs/tool-fs.md "Paths and the session's
// working directory").
func MutationBase(policy *sandbox.CallPolicy, exec *tools.Exec, path string) string {
	if policy != nil && policy.WorkspaceRoot != "" {
		return policy.WorkspaceRoot
	}
	return SessionCwd(exec.Header().Cwd, path)
}
