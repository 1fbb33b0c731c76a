package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// fixedAsker records every question and answers with a fixed outcome (or error). Outcomes are
// spelled with the tools seam's constants: the approval service answers in that vocabulary.
type fixedAsker struct {
	outcome tools.ApprovalOutcome
	err     error
	seen    []sandbox.EscalationQuestion
	ctxs    []context.Context
}

func (a *fixedAsker) AskEscalation(ctx context.Context, q sandbox.EscalationQuestion) (string, error) {
	a.seen = append(a.seen, q)
	a.ctxs = append(a.ctxs, ctx)
	return string(a.outcome), a.err
}

func escalationReq(over func(*sandbox.EscalationRequest)) sandbox.EscalationRequest {
	r := sandbox.EscalationRequest{
		Requested:     sandbox.WorkspaceWrite,
		Justification: "the user asked to write in the workspace",
		Effective:     sandbox.ReadOnly,
		Subject:       sandbox.SubjectCommand,
	}
	if over != nil {
		over(&r)
	}
	return r
}

// route is the approval route of a call: an asker (nil: no approval service) and an agent or not.
func route(a *fixedAsker, agent bool) sandbox.EscalationApproval {
	r := sandbox.EscalationApproval{Agent: agent}
	if a != nil {
		r.Asker = a
	}
	return r
}

// Grants: returns the requested mode, asking through the approver with the
// audit reason. The question also carries the mode asked for, the current mode and the
// justification, from which the caller's prompt is built (never from the reason alone).
func TestApproveEscalationGrants(t *testing.T) {
	a := &fixedAsker{outcome: tools.AllowedOnce}
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "signal")
	got, err := sandbox.ApproveEscalation(ctx, escalationReq(nil), route(a, true))
	require.NoError(t, err)
	assert.Equal(t, sandbox.WorkspaceWrite, got)
	require.Len(t, a.seen, 1, "asked exactly once")
	assert.Equal(t, sandbox.EscalationQuestion{
		Reason: "escalate sandbox to workspace-write: the user asked to write in the workspace",
		Mode:   sandbox.WorkspaceWrite, Current: sandbox.ReadOnly,
		Justification: "the user asked to write in the workspace",
	}, a.seen[0])
	assert.Equal(t, "signal", a.ctxs[0].Value(key{}), "the ask rides the caller's context")

	a = &fixedAsker{outcome: tools.Rejected}
	req := escalationReq(func(r *sandbox.EscalationRequest) {
		r.Requested, r.Effective = sandbox.DangerFullAccess, sandbox.WorkspaceWrite
		r.Justification = "update the project README formatting"
	})
	_, err = sandbox.ApproveEscalation(context.Background(), req, route(a, true))
	require.ErrorIs(t, err, sandbox.ErrEscalationRejected)
	require.Len(t, a.seen, 1)
	assert.Equal(t, sandbox.EscalationQuestion{
		Reason: "escalate sandbox to danger-full-access: update the project README formatting",
		Mode:   sandbox.DangerFullAccess, Current: sandbox.WorkspaceWrite,
		Justification: "update the project README formatting",
	}, a.seen[0])
}

// A non-widening request fails closed with its own text and never asks.
func TestApproveEscalationNotWider(t *testing.T) {
	cases := []struct {
		requested, effective sandbox.Mode
		text                 string
	}{
		{sandbox.ReadOnly, sandbox.ReadOnly, `sandbox escalation to "read-only" is not strictly wider than this call's current "read-only" mode`},
		{sandbox.WorkspaceWrite, sandbox.WorkspaceWrite, `sandbox escalation to "workspace-write" is not strictly wider than this call's current "workspace-write" mode`},
		{sandbox.WorkspaceWrite, sandbox.DangerFullAccess, `sandbox escalation to "workspace-write" is not strictly wider than this call's current "danger-full-access" mode`},
		{sandbox.DangerFullAccess, sandbox.DangerFullAccess, `sandbox escalation to "danger-full-access" is not strictly wider than this call's current "danger-full-access" mode`},
		{sandbox.ReadOnly, sandbox.WorkspaceWrite, `sandbox escalation to "read-only" is not strictly wider than this call's current "workspace-write" mode`},
		{"yolo", sandbox.ReadOnly, `sandbox escalation to "yolo" is not strictly wider than this call's current "read-only" mode`},
		{sandbox.DangerFullAccess, "bogus", `sandbox escalation to "danger-full-access" is not strictly wider than this call's current "bogus" mode`},
	}
	for _, c := range cases {
		a := &fixedAsker{outcome: tools.AllowedOnce}
		// Even without an approver or an agent the widening check comes first.
		for _, in := range []sandbox.EscalationApproval{route(a, true), {}} {
			got, err := sandbox.ApproveEscalation(context.Background(), escalationReq(func(r *sandbox.EscalationRequest) {
				r.Requested, r.Effective = c.requested, c.effective
			}), in)
			require.Error(t, err)
			assert.Equal(t, c.text, err.Error())
			assert.ErrorIs(t, err, sandbox.ErrNotWider)
			requireEscalationCode(t, err, "SANDBOX_ESCALATION_NOT_WIDER")
			assert.Empty(t, got)
		}
		assert.Empty(t, a.seen, "never asks")
	}
}

// A missing approval service and an agent-less call each fail closed with
// distinct text (in that order: the service check comes first).
func TestApproveEscalationMissingRoute(t *testing.T) {
	_, err := sandbox.ApproveEscalation(context.Background(), escalationReq(nil), route(nil, true))
	require.Error(t, err)
	assert.Equal(t, `sandbox escalation to "workspace-write" requires approval, but no approval service is composed`, err.Error())
	assert.ErrorIs(t, err, sandbox.ErrNoApprovalService)
	requireEscalationCode(t, err, "SANDBOX_ESCALATION_NO_APPROVAL_SERVICE")

	_, err = sandbox.ApproveEscalation(context.Background(), escalationReq(nil), route(nil, false))
	assert.ErrorIs(t, err, sandbox.ErrNoApprovalService, "no service wins over no agent")

	a := &fixedAsker{outcome: tools.AllowedOnce}
	_, err = sandbox.ApproveEscalation(context.Background(), escalationReq(nil), route(a, false))
	require.Error(t, err)
	assert.Equal(t, `sandbox escalation to "workspace-write" requires approval, but the call has no agent to route it through`, err.Error())
	assert.ErrorIs(t, err, sandbox.ErrNoAgent)
	requireEscalationCode(t, err, "SANDBOX_ESCALATION_NO_AGENT")
	assert.Empty(t, a.seen)
}

// Maps each non-grant outcome to its distinct verbatim text (subject in the
// rejection).
func TestApproveEscalationOutcomes(t *testing.T) {
	cases := []struct {
		outcome tools.ApprovalOutcome
		subject string
		kind    error
		code    string
		text    string
	}{
		{tools.Rejected, sandbox.SubjectOperation, sandbox.ErrEscalationRejected, "SANDBOX_ESCALATION_REJECTED", `the user rejected escalating this operation to "workspace-write"`},
		{tools.Rejected, sandbox.SubjectCommand, sandbox.ErrEscalationRejected, "SANDBOX_ESCALATION_REJECTED", `the user rejected escalating this command to "workspace-write"`},
		{tools.Cancelled, sandbox.SubjectCommand, sandbox.ErrEscalationCancelled, "SANDBOX_ESCALATION_CANCELLED", `approval for escalating to "workspace-write" was cancelled`},
		{tools.Unavailable, sandbox.SubjectCommand, sandbox.ErrEscalationUnavailable, "SANDBOX_ESCALATION_UNAVAILABLE", `sandbox escalation to "workspace-write" requires approval, but no approval channel is available`},
		{"bogus", sandbox.SubjectOperation, sandbox.ErrUnknownOutcome, "SANDBOX_ESCALATION_UNKNOWN_OUTCOME", `unexpected approval outcome "bogus"`},
	}
	for _, c := range cases {
		a := &fixedAsker{outcome: c.outcome}
		got, err := sandbox.ApproveEscalation(context.Background(), escalationReq(func(r *sandbox.EscalationRequest) { r.Subject = c.subject }), route(a, true))
		require.Error(t, err, c.outcome)
		assert.Equal(t, c.text, err.Error())
		assert.ErrorIs(t, err, c.kind)
		var ee *sandbox.EscalationError
		require.ErrorAs(t, err, &ee)
		assert.Empty(t, got)
		assert.Len(t, a.seen, 1)
		requireEscalationCode(t, err, c.code)
	}
}

// requireEscalationCode asserts err reports {SandboxEscalationError, code} to the tool runtime.
func requireEscalationCode(t *testing.T, err error, code string) {
	t.Helper()
	var coded tools.Coded
	require.ErrorAs(t, err, &coded)
	assert.Equal(t, code, coded.Code())
	named, ok := coded.(tools.Named)
	require.True(t, ok)
	assert.Equal(t, sandbox.EscalationErrorName, named.Name())
}

// Every kind of escalation failure has its own code.
func TestEscalationCodesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, kind := range []error{sandbox.ErrNotWider, sandbox.ErrNoApprovalService, sandbox.ErrNoAgent, sandbox.ErrEscalationRejected,
		sandbox.ErrEscalationCancelled, sandbox.ErrEscalationUnavailable, sandbox.ErrUnknownOutcome} {
		code := sandbox.EscalationCodes[kind]
		assert.True(t, strings.HasPrefix(code, "SANDBOX_ESCALATION_"), "%v: %q", kind, code)
		assert.False(t, seen[code], code)
		seen[code] = true
	}
	assert.Len(t, sandbox.EscalationCodes, len(seen))
}

// An outcome outside the closed union trips the exhaustiveness guard.
func TestApproveEscalationUnknownOutcome(t *testing.T) {
	a := &fixedAsker{outcome: "bogus"}
	got, err := sandbox.ApproveEscalation(context.Background(), escalationReq(nil), route(a, true))
	require.ErrorIs(t, err, sandbox.ErrUnknownOutcome)
	assert.Empty(t, got)
}

// An approver's own failure (e.g. an approval service refusing to ask) propagates unchanged.
func TestApproveEscalationApproverError(t *testing.T) {
	boom := errors.New("approval.request() outside an open turn")
	a := &fixedAsker{outcome: tools.AllowedOnce, err: boom}
	got, err := sandbox.ApproveEscalation(context.Background(), escalationReq(nil), route(a, true))
	assert.Same(t, boom, err)
	assert.Empty(t, got)
}

// The ladder: every (requested, effective) pair of known modes is granted exactly when it
// widens, with danger-full-access reachable from both confined modes.
func TestApproveEscalationLadder(t *testing.T) {
	for _, eff := range sandbox.Modes {
		for _, req := range sandbox.Modes {
			a := &fixedAsker{outcome: tools.AllowedOnce}
			got, err := sandbox.ApproveEscalation(context.Background(), sandbox.EscalationRequest{Requested: req, Justification: "j", Effective: eff, Subject: sandbox.SubjectOperation}, route(a, true))
			if sandbox.IsWider(req, eff) {
				require.NoError(t, err)
				assert.Equal(t, req, got)
			} else {
				assert.ErrorIs(t, err, sandbox.ErrNotWider)
			}
		}
	}
}

// ValidateEscalationArgs accepts neither field or both with a non-empty
// justification; rejects one without the other and a blank justification, in order.
func TestValidateEscalationArgs(t *testing.T) {
	str := func(s string) *string { return &s }
	assert.NoError(t, sandbox.ValidateEscalationArgs(nil, nil))
	assert.NoError(t, sandbox.ValidateEscalationArgs(str("workspace-write"), str("because the workspace needs it")))
	assert.NoError(t, sandbox.ValidateEscalationArgs(str("bogus"), str(" x ")), "the mode is judged later")
	cases := []struct {
		p, j *string
		want error
		text string
	}{
		{str("workspace-write"), nil, sandbox.ErrEscalationNoJustification, "invalid escalation: sandbox_permissions requires a justification"},
		{nil, str("orphan reason"), sandbox.ErrEscalationNoPermissions, "invalid escalation: justification is only valid together with sandbox_permissions"},
		{nil, str("   "), sandbox.ErrEscalationNoPermissions, "invalid escalation: justification is only valid together with sandbox_permissions"},
		{str("workspace-write"), str("   "), sandbox.ErrEscalationBlank, "invalid justification: expected a non-empty sentence"},
		{str("workspace-write"), str(""), sandbox.ErrEscalationBlank, "invalid justification: expected a non-empty sentence"},
		{str("workspace-write"), str("\u00a0\u2028\ufeff\t\r\n\u3000"), sandbox.ErrEscalationBlank, "invalid justification: expected a non-empty sentence"},
	}
	for _, c := range cases {
		err := sandbox.ValidateEscalationArgs(c.p, c.j)
		require.ErrorIs(t, err, c.want)
		assert.Equal(t, c.text, err.Error())
	}
	assert.NoError(t, sandbox.ValidateEscalationArgs(str("workspace-write"), str("\u200b")), "ZERO WIDTH SPACE is not trimmed by JavaScript")
	assert.NoError(t, sandbox.ValidateEscalationArgs(str("workspace-write"), str("\u0085")), "nor is NEXT LINE")
}
