package sandbox

import (
	"context"
	"errors"
	"fmt"
)

// The kinds of an escalation failure. Match them with errors.Is; the model sees the
// *EscalationError's message, and the tool result's {name, code} carries EscalationErrorName and
// the kind's code (see EscalationCodes).
var (
	// ErrNotWider: the requested mode is not strictly wider than the call's effective mode
	// (the same mode and unknown strings included). Nobody was asked.
	ErrNotWider = errors.New("sandbox escalation not strictly wider")
	// ErrNoApprovalService: no approval service is composed.
	ErrNoApprovalService = errors.New("sandbox escalation without an approval service")
	// ErrNoAgent: the call has no agent session to route the ask through.
	ErrNoAgent = errors.New("sandbox escalation without an agent")
	// ErrEscalationRejected: the user rejected the escalation.
	ErrEscalationRejected = errors.New("sandbox escalation rejected")
	// ErrEscalationCancelled: the ask was cancelled.
	ErrEscalationCancelled = errors.New("sandbox escalation cancelled")
	// ErrEscalationUnavailable: no approval channel could answer.
	ErrEscalationUnavailable = errors.New("sandbox escalation unavailable")
	// ErrUnknownOutcome: the approver returned an outcome outside the closed vocabulary.
	ErrUnknownOutcome = errors.New("sandbox escalation: unknown approval outcome")
)

// EscalationErrorName is the Name of every *EscalationError.
const EscalationErrorName = "SandboxEscalationError"

// EscalationCodes maps each kind of escalation failure to its code.
var EscalationCodes = map[error]string{
	ErrNotWider:              "SANDBOX_ESCALATION_NOT_WIDER",
	ErrNoApprovalService:     "SANDBOX_ESCALATION_NO_APPROVAL_SERVICE",
	ErrNoAgent:               "SANDBOX_ESCALATION_NO_AGENT",
	ErrEscalationRejected:    "SANDBOX_ESCALATION_REJECTED",
	ErrEscalationCancelled:   "SANDBOX_ESCALATION_CANCELLED",
	ErrEscalationUnavailable: "SANDBOX_ESCALATION_UNAVAILABLE",
	ErrUnknownOutcome:        "SANDBOX_ESCALATION_UNKNOWN_OUTCOME",
}

// EscalationError is a failed escalation: Kind is one of the Err* kinds above, Message the exact
// model-facing text. It reports {name, code} to the tool runtime through Name and Code.
type EscalationError struct {
	Kind    error
	Message string
}

// Error returns the model-facing message.
func (e *EscalationError) Error() string { return e.Message }

// Code returns the code of the kind (EscalationCodes).
func (e *EscalationError) Code() string { return EscalationCodes[e.Kind] }

// Name returns EscalationErrorName.
func (e *EscalationError) Name() string { return EscalationErrorName }

// Unwrap returns the kind, so errors.Is(err, ErrEscalationRejected) holds.
func (e *EscalationError) Unwrap() error { return e.Kind }

func escalationError(kind error, format string, args ...any) error {
	return &EscalationError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// EscalationRequest is one sandbox_permissions request as ApproveEscalation judges it.
type EscalationRequest struct {
	// Requested is the requested target mode: untrusted, so any string (an unknown one is
	// "not strictly wider").
	Requested Mode
	// Justification is the model's one sentence, quoted verbatim in the approval reason.
	Justification string
	// Effective is the call's standing mode (session override, else the deployment default).
	Effective Mode
	// Subject is the noun of the escalated action: SubjectOperation (fs) or SubjectCommand (shell).
	Subject string
}

// EscalationApproval holds what the calling tool knows about the approval route.
type EscalationApproval struct {
	// Asker asks through the composed approval service; nil when none is composed.
	Asker Asker
	// Agent reports whether the call has an agent session to route the ask through.
	Agent bool
}

// Asker asks a person, once, whether one call may run under a wider mode: the calling tool's
// route to its approval service, bound to the call (its agent session, tool name and call id)
// and to what the call would do (its path and previews, for the prompt).
type Asker interface {
	// AskEscalation asks q and returns the approval service's closed outcome: "allowed-once"
	// (the only grant), "rejected", "cancelled" or "unavailable". A cancelled ctx is the
	// request's signal.
	AskEscalation(ctx context.Context, q EscalationQuestion) (string, error)
}

// EscalationQuestion is what an escalation asks: the audit reason (EscalationReason) and, for
// the prompt, the mode asked for, the call's current mode and the model's justification.
type EscalationQuestion struct {
	Reason        string
	Mode, Current Mode
	Justification string
}

// The approval outcomes ApproveEscalation maps (the approval service's vocabulary).
const (
	outcomeAllowedOnce = "allowed-once"
	outcomeRejected    = "rejected"
	outcomeCancelled   = "cancelled"
	outcomeUnavailable = "unavailable"
)

// EscalationReason is the approval reason of an escalation to requested (the audit text).
func EscalationReason(requested Mode, justification string) string {
	return "escalate sandbox to " + string(requested) + ": " + justification
}

// ApproveEscalation resolves a sandbox escalation before anything executes, in a fixed, fail-closed
// order (docs/tool-fs.md "Sandbox escalation"): the request must strictly widen the effective mode
// (checked without asking anyone), an approval service must be composed, the call must have an
// agent, and then the asker is asked exactly once with the reason
// "escalate sandbox to <requested>: <justification>", the requested and effective modes and the
// justification. It returns the granted mode for exactly this call on allowed-once and an
// *EscalationError with the verbatim text for every other path. An error returned by the asker
// itself (for example an approval service refusing to ask) is returned unchanged. ctx rides the
// ask (its cancellation is the request's signal).
func ApproveEscalation(ctx context.Context, req EscalationRequest, approval EscalationApproval) (Mode, error) {
	mode := req.Requested
	if !IsWider(mode, req.Effective) {
		return "", escalationError(ErrNotWider, `sandbox escalation to "%s" is not strictly wider than this call's current "%s" mode`, string(mode), string(req.Effective))
	}
	if approval.Asker == nil {
		return "", escalationError(ErrNoApprovalService, `sandbox escalation to "%s" requires approval, but no approval service is composed`, string(mode))
	}
	if !approval.Agent {
		return "", escalationError(ErrNoAgent, `sandbox escalation to "%s" requires approval, but the call has no agent to route it through`, string(mode))
	}
	outcome, err := approval.Asker.AskEscalation(ctx, EscalationQuestion{
		Reason:        EscalationReason(mode, req.Justification),
		Mode:          mode,
		Current:       req.Effective,
		Justification: req.Justification,
	})
	if err != nil {
		return "", err
	}
	switch outcome {
	case outcomeAllowedOnce:
		return mode, nil
	case outcomeRejected:
		return "", escalationError(ErrEscalationRejected, `the user rejected escalating this %s to "%s"`, req.Subject, string(mode))
	case outcomeCancelled:
		return "", escalationError(ErrEscalationCancelled, `approval for escalating to "%s" was cancelled`, string(mode))
	case outcomeUnavailable:
		return "", escalationError(ErrEscalationUnavailable, `sandbox escalation to "%s" requires approval, but no approval channel is available`, string(mode))
	}
	return "", escalationError(ErrUnknownOutcome, `unexpected approval outcome "%s"`, outcome)
}
