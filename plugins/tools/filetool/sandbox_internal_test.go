package filetool

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

var sandboxIsBlank = texts.IsBlank

// MapError keeps the code, chains the original as the cause and names the stamped mode; other
// errors are returned as the same value (docs/tool-fs.md "Sandbox escalation").
func TestConfiningMapError(t *testing.T) {
	c := &confiningSandbox{defaultMode: sandbox.ReadOnly}
	orig := fs.NewError(fs.CodeSandboxDenied, `cannot write "/x": file access denied under workspace-write mode`, nil)
	got := c.MapError(context.Background(), orig, "/x", &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws", NoTempRoots: true})
	var fe *fs.Error
	require.ErrorAs(t, got, &fe)
	assert.Equal(t, fs.CodeSandboxDenied, fe.Kind)
	assert.Equal(t, "[sandbox: file access denied under workspace-write mode]\n[sandbox: escalation available — retry this exact operation once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]\n"+
		`cannot write "/x": it is outside the writable roots, or under a protected path (.git); writable roots:`+"\n  /ws", fe.Message)
	assert.Same(t, orig, errors.Unwrap(got))
	assert.True(t, errors.Is(got, fs.ErrSandboxDenied))

	// The remedy wrapper leaves the mapped denial alone.
	assert.Same(t, got, Remediate(got, "/x"))

	// Without a policy (never on the tool path) the provider's default mode is named.
	assert.Contains(t, c.MapError(context.Background(), orig, "/x", nil).Error(), "[sandbox: file access denied under read-only mode]")

	// A host that says the call has no approval channel gets no escalation hint, but how the
	// user widens the roots.
	noChannel := c.MapError(tools.WithApprovalChannel(context.Background(), false), orig, "/x", &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws", NoTempRoots: true})
	require.ErrorAs(t, noChannel, &fe)
	assert.Equal(t, "[sandbox: file access denied under workspace-write mode]\n"+
		`cannot write "/x": it is outside the writable roots, or under a protected path (.git); writable roots:`+"\n  /ws\n"+sandbox.WidenHint, fe.Message)
	withChannel := c.MapError(tools.WithApprovalChannel(context.Background(), true), orig, "/x", &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws", NoTempRoots: true})
	assert.Contains(t, withChannel.Error(), "[sandbox: escalation available")
	assert.NotContains(t, withChannel.Error(), sandbox.WidenHint)

	for _, other := range []error{fs.NewError(fs.CodeIOError, "boom", nil), errors.New("plain"), fs.NewError(fs.CodeNotObserved, "n", nil)} {
		assert.Same(t, other, c.MapError(context.Background(), other, "/x", &sandbox.CallPolicy{Mode: sandbox.WorkspaceWrite}))
	}
	// The non-confining hook never maps.
	assert.Same(t, orig, noSandbox{}.MapError(context.Background(), orig, "/x", nil))
}

// withEscalationFields appends the two properties after the base ones and leaves a schema
// without a properties/required boundary unchanged; the result stays valid JSON.
func TestWithEscalationFields(t *testing.T) {
	for _, base := range []json.RawMessage{
		json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"content":{"type":"string"}},"required":["file_path","content"]}`),
		json.RawMessage(`{"type":"object","properties":{"input":{"type":"string"}},"required":["input"]}`),
	} {
		got := withEscalationFields(base)
		assert.True(t, json.Valid(got))
		var m map[string]any
		require.NoError(t, json.Unmarshal(got, &m))
		props := m["properties"].(map[string]any)
		assert.Contains(t, props, "sandbox_permissions")
		assert.Contains(t, props, "justification")
		assert.Equal(t, string(base), string(noSandbox{}.Parameters(base)))
	}
	odd := json.RawMessage(`{"type":"object"}`)
	assert.Equal(t, string(odd), string(withEscalationFields(odd)))
}

// The escalation argument accessors read what the model sent.
func TestEscalationArgsAccessors(t *testing.T) {
	e, err := parseEscalationArgs(json.RawMessage(`{"sandbox_permissions":"workspace-write","justification":" why "}`))
	require.NoError(t, err)
	assert.True(t, e.requested())
	assert.Equal(t, sandbox.WorkspaceWrite, e.mode())
	assert.Equal(t, " why ", e.justification(), "not trimmed")

	e, err = parseEscalationArgs(json.RawMessage(`{"sandbox_permissions":7,"justification":"why"}`))
	require.NoError(t, err)
	assert.Equal(t, sandbox.Mode("7"), e.mode(), "a non-string value is never a mode")

	_, err = parseEscalationArgs(json.RawMessage(`{"sandbox_permissions":"workspace-write","justification":3}`))
	assert.EqualError(t, err, "invalid justification: expected a non-empty sentence")
	_, err = parseEscalationArgs(json.RawMessage(`{"justification":null}`))
	assert.EqualError(t, err, "invalid escalation: justification is only valid together with sandbox_permissions")
	e, err = parseEscalationArgs(json.RawMessage(`{}`))
	require.NoError(t, err)
	assert.False(t, e.requested())
}

// FuzzParseEscalationArgs: any argument object is either refused with one of the three pairing
// errors (or a decoding error) or accepted with both fields present or neither; an accepted
// request always carries a non-blank string justification. Nothing panics.
func FuzzParseEscalationArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"sandbox_permissions":"workspace-write","justification":"why"}`,
		`{"sandbox_permissions":null}`, `{"justification":" "}`, `{"sandbox_permissions":1,"justification":"x"}`,
		`{"sandbox_permissions":"a","justification":"\u2028"}`, `[]`, `null`, `{"justification":{"a":1},"sandbox_permissions":[]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		e, err := parseEscalationArgs(json.RawMessage(raw))
		if err != nil {
			return
		}
		hasP, hasJ := len(e.Permissions) > 0, len(e.Justification) > 0
		if hasP != hasJ {
			t.Fatalf("accepted a lone field: %s", raw)
		}
		if hasJ {
			var s string
			if json.Unmarshal(e.Justification, &s) != nil || sandboxIsBlank(s) {
				t.Fatalf("accepted a blank or non-string justification: %s", raw)
			}
			if e.justification() != s {
				t.Fatalf("justification changed: %q vs %q", e.justification(), s)
			}
		}
	})
}

// recordingApprover records every request and answers with a fixed outcome.
type recordingApprover struct {
	outcome tools.ApprovalOutcome
	seen    []tools.ApprovalRequest
}

func (a *recordingApprover) Request(_ context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	a.seen = append(a.seen, req)
	return a.outcome, nil
}

// The sandbox's asker sends the call's request (session, tool, call id, what it would do) with
// the question's reason, and the details completed with the mode asked for, the current mode and
// the justification, replacing what the details held; the call's own details stay as they were.
func TestApprovalAskerCompletesTheDetails(t *testing.T) {
	s := tools.NewSession("s1")
	details := tools.ApprovalDetails{Path: "/ws/README.md", ResolvedPath: "/etc/cron.d/job", Mode: "ignored", Justification: "ignored",
		Previews: []tools.ApprovalPreview{{Label: "Content", Text: "* * * * * root x\n"}}}
	a := &recordingApprover{outcome: tools.Cancelled}
	asker := &approvalAsker{approver: a, req: tools.ApprovalRequest{Session: s, ToolName: "write", CallID: "call-1", Details: &details}}
	q := sandbox.EscalationQuestion{Reason: "escalate sandbox to danger-full-access: update the README",
		Mode: sandbox.DangerFullAccess, Current: sandbox.WorkspaceWrite, Justification: "update the README"}
	got, err := asker.AskEscalation(context.Background(), q)
	require.NoError(t, err)
	assert.Equal(t, string(tools.Cancelled), got)
	require.Len(t, a.seen, 1)
	assert.Equal(t, tools.ApprovalRequest{Session: s, ToolName: "write", CallID: "call-1",
		Reason: "escalate sandbox to danger-full-access: update the README",
		Details: &tools.ApprovalDetails{Path: "/ws/README.md", ResolvedPath: "/etc/cron.d/job",
			Mode: "danger-full-access", CurrentMode: "workspace-write", Justification: "update the README",
			Previews: []tools.ApprovalPreview{{Label: "Content", Text: "* * * * * root x\n"}}}}, a.seen[0])
	assert.Equal(t, "ignored", details.Mode, "the call's details are not changed")

	// Each of the approval seam's outcomes reaches the sandbox as the value it maps.
	for outcome, kind := range map[tools.ApprovalOutcome]error{tools.Rejected: sandbox.ErrEscalationRejected,
		tools.Cancelled: sandbox.ErrEscalationCancelled, tools.Unavailable: sandbox.ErrEscalationUnavailable} {
		asker.approver = &recordingApprover{outcome: outcome}
		_, err := sandbox.ApproveEscalation(context.Background(), sandbox.EscalationRequest{Requested: sandbox.DangerFullAccess,
			Justification: "j", Effective: sandbox.ReadOnly, Subject: sandbox.SubjectOperation}, sandbox.EscalationApproval{Asker: asker, Agent: true})
		assert.ErrorIs(t, err, kind, outcome)
	}
	asker.approver = &recordingApprover{outcome: tools.AllowedOnce}
	granted, err := sandbox.ApproveEscalation(context.Background(), sandbox.EscalationRequest{Requested: sandbox.DangerFullAccess,
		Justification: "j", Effective: sandbox.ReadOnly, Subject: sandbox.SubjectOperation}, sandbox.EscalationApproval{Asker: asker, Agent: true})
	require.NoError(t, err)
	assert.Equal(t, sandbox.DangerFullAccess, granted)
}

// A call without a session reaches the sandbox seam as an untyped nil, so a policy sees an
// agentless call, never a nil pointer it would dereference.
func TestSandboxSessionOfNoSession(t *testing.T) {
	assert.True(t, sandboxSession(nil) == nil, "an untyped nil")
	s := tools.NewSession("s1")
	assert.Same(t, s, sandboxSession(s))
}

// parseEscalationArgs decodes the escalation arguments of an argument object as the file tools
// decode theirs, then checks them.
func parseEscalationArgs(raw json.RawMessage) (Escalation, error) {
	var a Escalation
	if err := tools.DecodeArgs(raw, &a); err != nil {
		return Escalation{}, err
	}
	return checkEscalationArgs(a)
}
