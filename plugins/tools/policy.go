package tools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// prepare applies a tools/pre-execute decision other than a plain allow, approval and the
// guards. It returns (allowed zero Result, false) to dispatch, (error result, false) for a result
// that still goes through post-execute, or (result, true) for a final result.
func (r *Runtime) prepare(ctx context.Context, exec *Exec, st *callState, decision Decision) (Result, bool) {
	var err error
	approvalCancelled := false
	switch decision.Kind {
	case "", Allow, Deny:
	case Ask:
		decision, approvalCancelled, err = r.ask(ctx, exec, decision)
		if err != nil {
			return ErrorResult(err), true
		}
	default:
		return ErrorResult(fmt.Errorf("tools/pre-execute returned unknown decision kind %s", quote(string(decision.Kind)))), true
	}
	if st.caller.Err() != nil && approvalCancelled {
		return abortedBeforeDispatchResult(), false
	}
	var reason string
	if decision.Kind == Deny {
		reason = decision.Reason
		if reason == "" {
			reason = "tool " + quote(exec.Name) + " was denied by policy"
		}
	} else {
		reason = r.guardReason(exec)
	}
	if reason != "" {
		return denialResult(reason), false
	}
	if st.caller.Err() != nil {
		return abortedBeforeDispatchResult(), false
	}
	return Result{}, false
}

func (r *Runtime) guardReason(exec *Exec) string {
	r.mu.RLock()
	guards := slices.Clone(r.guards)
	r.mu.RUnlock()
	for _, g := range guards {
		if reason := g.fn(exec); reason != "" {
			return reason
		}
	}
	return ""
}

// ask resolves an Ask decision through the Approval seam.
func (r *Runtime) ask(ctx context.Context, exec *Exec, d Decision) (Decision, bool, error) {
	approver, ok := Approval.Get(r.kc)
	if !ok || approver == nil {
		reason := d.Reason
		if reason == "" {
			reason = "tool " + quote(exec.Name) + " requires approval (not yet supported)"
		}
		return Decision{Kind: Deny, Reason: reason}, false, nil
	}
	if exec.Session == nil {
		return Decision{Kind: Deny, Reason: "tool " + quote(exec.Name) + " requires approval, but the call has no agent to route it through"}, false, nil
	}
	outcome, err := approver.Request(ctx, ApprovalRequest{Session: exec.Session, ToolName: exec.Name, CallID: exec.CallID, Reason: d.Reason})
	if err != nil {
		return Decision{}, false, err
	}
	switch outcome {
	case AllowedOnce:
		return Decision{Kind: Allow}, false, nil
	case Rejected:
		return Decision{Kind: Deny, Reason: "the user rejected tool " + quote(exec.Name)}, false, nil
	case Cancelled:
		return Decision{Kind: Deny, Reason: "approval for tool " + quote(exec.Name) + " was cancelled"}, true, nil
	case Unavailable:
		return Decision{Kind: Deny, Reason: "tool " + quote(exec.Name) + " requires approval, but no approval channel is available"}, false, nil
	}
	return Decision{}, false, fmt.Errorf("unknown approval outcome %s", quote(string(outcome)))
}

// postExecute applies a tools/post-execute decision other than a plain accept.
func (r *Runtime) postExecute(exec *Exec, res Result, decision PostDecision) Result {
	switch decision.Kind {
	case Block:
		if !validContent(decision.Feedback) {
			return ErrorResult(errResultNotLossless)
		}
		return Result{Content: decision.Feedback, IsError: true, Error: &ErrorInfo{Message: failureMessage(decision.Feedback)}, canon: exec}
	case "", Accept:
	default:
		return ErrorResult(fmt.Errorf("tools/post-execute returned unknown decision kind %s", quote(string(decision.Kind))))
	}
	if decision.ReplaceValue {
		if decision.Content != nil {
			return ErrorResult(errors.New("tools/post-execute accept decision cannot replace both value and content"))
		}
		if res.IsError {
			return ErrorResult(errors.New("tools/post-execute cannot replace the value of a failed result"))
		}
		e := r.lookup(exec.Name)
		if e == nil {
			return ErrorResult(newUnknownToolError(exec.Name))
		}
		out, err := r.success(exec, e, decision.Value)
		if err != nil {
			return ErrorResult(err)
		}
		return out
	}
	if decision.Content != nil {
		if !validContent(decision.Content) {
			return ErrorResult(errResultNotLossless)
		}
		res.Content = slices.Clone(decision.Content)
	}
	return res
}

// errResultNotLossless rejects policy-supplied content that hosts cannot encode.
var errResultNotLossless = errors.New("tool result must be losslessly JSON-serializable")

// validContent reports whether every block is a text or image block.
func validContent(content []Content) bool {
	for _, c := range content {
		if c.Type != ContentText && c.Type != ContentImage {
			return false
		}
	}
	return true
}

// failureMessage derives a failure message from feedback blocks.
func failureMessage(content []Content) string {
	parts := make([]string, 0, len(content))
	for _, c := range content {
		if c.Type == ContentText {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, "["+c.Type+" content]")
		}
	}
	if text := strings.Join(parts, "\n"); text != "" {
		return text
	}
	return "tool result blocked by post-execute policy"
}
