package userapproval

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Request is one pending question, as answerers see it. Treat it as read-only.
type Request struct {
	// ID identifies the ask; the Asked and Decided events of the same ask carry it.
	ID string
	// Session is the agent session the question is asked for (never nil).
	Session *tools.Session
	// ToolName is the tool the question is about.
	ToolName string
	// CallID is the exact tool call being decided; "" when the asker has none.
	CallID string
	// Reason is the asker's explanation; "" when none.
	Reason string
	// Details is what the call would do, when the asker described it; a channel shows
	// tools.ApprovalPrompt of the request.
	Details *tools.ApprovalDetails
}

// RequestEvent asks the composed answerers for one decision.
// An answerer returns an outcome to claim the request or calls next to pass it on; the default at
// the bottom is tools.Unavailable. An answerer's error or panic, or an outcome outside the four
// of tools, makes the request Unavailable; the context given to answerers is cancelled when the
// request is withdrawn. Mode: waterfall.
var RequestEvent = kernel.NewWaterfall[*Request, tools.ApprovalOutcome]("approval/request")

// Asked is the payload of AskedEvent.
type Asked struct {
	ID       string
	Session  *tools.Session
	ToolName string
	CallID   string
	Reason   string
	Details  *tools.ApprovalDetails
}

// Decided is the payload of DecidedEvent.
type Decided struct {
	ID      string
	Session *tools.Session
	Outcome tools.ApprovalOutcome
}

// AskedEvent reports that a question was put to the answerers (the audit record of the
// question); exactly one DecidedEvent with the same ID follows. Mode: emit
// (contained: a listener can neither fail nor change the request).
var AskedEvent = kernel.NewEvent[Asked]("approval/asked")

// DecidedEvent reports the outcome of an ask (approval/decided). Mode: emit (contained).
var DecidedEvent = kernel.NewEvent[Decided]("approval/decided")

// Answerer is the function shape of an answerer registered with OnSession.
type Answerer func(ctx context.Context, req *Request) (tools.ApprovalOutcome, error)

// OnSession registers fn as an answerer for one session only, as an effect of kc: requests of
// other sessions pass it by (answerers scoped to one agent). A UI channel that owns a
// session registers here; a host-wide channel registers on RequestEvent directly.
func OnSession(kc *kernel.Context, session *tools.Session, fn Answerer) (kernel.Disposer, error) {
	return RequestEvent.On(kc, func(ctx context.Context, req *Request, next func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		if req.Session != session {
			return next()
		}
		return fn(ctx, req)
	})
}
