package tools

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
)

// Service is the ctx.tools seam: the tool registry and execution pipeline,
// provided by the "tools" plugin.
var Service = kernel.NewService[*Runtime]("tools")

// PreExecute decides whether a call may run: allow, deny (with a reason) or
// ask (routed to the Approval service; without one it degrades to deny).
// The inner default is allow. Listeners see every call, including calls of
// unknown tools. Mode: waterfall.
var PreExecute = kernel.NewWaterfall[*Exec, Decision]("tools/pre-execute")

// ExecuteStep wraps the dispatch of an allowed call (timeouts, retries,
// metrics). next runs the remaining wrappers and then the body; a wrapper may
// set Dispatch.Ctx for the remainder (the caller's cancellation stays fused
// in) and must restore it. A wrapper's error ends the call without
// post-execute. Mode: waterfall.
var ExecuteStep = kernel.NewWaterfall[*Dispatch, Result]("tools/execute")

// ChangeStep wraps the body of an allowed call of a tool that may change its environment (one not
// annotated ReadOnly), inside ExecuteStep's wrappers: what only a change needs (naming the call to
// the changes it publishes) goes here, and a read never runs it. Its rules are ExecuteStep's.
// Mode: waterfall.
var ChangeStep = kernel.NewWaterfall[*Dispatch, Result]("tools/execute-change")

// PostExecute accepts, replaces (content or value) or blocks a dispatched
// result; body failures and unknown tools reach it too. The inner default is
// accept. Mode: waterfall.
var PostExecute = kernel.NewWaterfall[PostArgs, PostDecision]("tools/post-execute")

// ResultEvent reports the final result of every call. It is dispatched
// contained: a listener's error or panic is logged at Warn and can neither
// fail nor change the result (ResultArgs.Result returns copies). Mode: emit.
var ResultEvent = kernel.NewEvent[ResultArgs]("tools/result")

// Change reports that the set of registered tools changed. Mode: emit
// (contained).
var Change = kernel.NewEvent[struct{}]("tools/change")

// SessionEnded reports that a host ended an agent session (Runtime.EndSession);
// policies drop the session's state. Mode: emit (contained).
var SessionEnded = kernel.NewEvent[*Session]("tools/session-ended")

// Approval is the optional approval seam ("approval"), probed with Get when a
// pre-execute decision asks and by sandbox escalation.
var Approval = kernel.NewService[Approver]("approval")

// Models is the optional model-information seam ("modelCatalog").
var Models = kernel.NewService[ModelCatalog]("modelCatalog")

// DecisionKind is the kind of a pre-execute Decision.
type DecisionKind string

// The pre-execute decisions. The zero Decision allows.
const (
	Allow DecisionKind = "allow"
	Deny  DecisionKind = "deny"
	Ask   DecisionKind = "ask"
)

// Decision is a pre-execute verdict. Reason is required for Deny (the model
// sees "Error: <reason>") and optional for Ask.
type Decision struct {
	Kind   DecisionKind
	Reason string
}

// Dispatch is the tools/execute payload: the call and the context the body
// will run under. Ctx starts as the caller's context.
type Dispatch struct {
	Exec *Exec
	Ctx  context.Context
}

// PostArgs is the tools/post-execute payload.
type PostArgs struct {
	Exec   *Exec
	Result Result
}

// PostKind is the kind of a PostDecision.
type PostKind string

// The post-execute decisions. The zero PostDecision accepts unchanged.
const (
	Accept PostKind = "accept"
	Block  PostKind = "block"
)

// PostDecision is a post-execute verdict. Accept may replace Content, or (only
// on a successful result) the Value when ReplaceValue is set — the value is
// then validated and rendered again; not both. Block turns the call into a
// failure whose content is Feedback.
type PostDecision struct {
	Kind         PostKind
	Content      []Content
	Value        any
	ReplaceValue bool
	Feedback     []Content
}

// ResultArgs is the tools/result payload. Result returns a fresh copy of the
// final result on every call, so one observer cannot change what another (or
// the caller) sees.
type ResultArgs struct {
	Exec *Exec
	res  Result
}

// Result returns a copy of the final result.
func (a ResultArgs) Result() Result { return cloneResult(a.res) }

// ApprovalOutcome is the closed answer of an Approver.
type ApprovalOutcome string

// The approval outcomes; AllowedOnce is the only grant.
const (
	AllowedOnce ApprovalOutcome = "allowed-once"
	Rejected    ApprovalOutcome = "rejected"
	Cancelled   ApprovalOutcome = "cancelled"
	Unavailable ApprovalOutcome = "unavailable"
)

// ApprovalRequest asks the user about one call. ApprovalPrompt renders what
// the user is shown.
type ApprovalRequest struct {
	Session  *Session
	ToolName string
	CallID   string
	// Reason is the asker's explanation (the audit text); "" means none. The
	// prompt shows it when there are no Details.
	Reason string
	// Details, when set, is what the call would do (an escalated write or
	// edit); the prompt shows it instead of Reason.
	Details *ApprovalDetails
}

// Approver is the approval seam. Request asks once and returns one outcome;
// a cancelled ctx yields Cancelled.
type Approver interface {
	Request(ctx context.Context, req ApprovalRequest) (ApprovalOutcome, error)
}

// Input modalities of ModelInfo.
const (
	ModalityText  = "text"
	ModalityImage = "image"
)

// ModelInfo is what the catalog knows about one model. A nil InputModalities
// means the capability is unknown.
type ModelInfo struct {
	ID              string
	InputModalities []string
}

// AcceptsImages reports whether the model declares image input.
func (m ModelInfo) AcceptsImages() bool {
	for _, x := range m.InputModalities {
		if x == ModalityImage {
			return true
		}
	}
	return false
}

// ModelCatalog is the model-information seam.
type ModelCatalog interface {
	// DefaultModel is the model of a session that names none.
	DefaultModel() string
	// ResolveModel returns what is known about id; an unknown id yields
	// ModelInfo{ID: id} with nil InputModalities and no error.
	ResolveModel(ctx context.Context, id string) (ModelInfo, error)
}

// ModelFor returns the model a call runs against: its session's header model,
// else the catalog's default model. It returns "" for a call without a
// session (the route cannot be resolved) and when neither names a model;
// catalog may be nil.
func ModelFor(exec *Exec, catalog ModelCatalog) string {
	if exec == nil || exec.Session == nil {
		return ""
	}
	if m := exec.Session.Header().Model; m != "" {
		return m
	}
	if catalog == nil {
		return ""
	}
	return catalog.DefaultModel()
}
