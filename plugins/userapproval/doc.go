// Package userapproval is the user-approval plugin: it provides tools.Approval ("approval"),
// the approval service that sandbox escalation and pre-execute "ask" decisions go through
// (docs/sandbox.md "The approval service").
//
// Configuration (strict: unknown keys are errors):
//
//	plugins:
//	  - name: user-approval
//	    config:
//	      policy: ask   # ask (default) | never
//
// A request (Service.Request) yields one of the closed outcomes of tools: allowed-once (the only
// grant; nothing is remembered, there is no "allow always"), rejected, cancelled or unavailable.
// The decision, in order:
//
//  1. the request's context is already cancelled: cancelled;
//  2. the session's effective policy is never: rejected, decided by the service before any
//     answerer (so no answerer, whatever its registration order, can open it);
//  3. otherwise the approval/request waterfall (RequestEvent) runs over the composed answerers,
//     with unavailable as the default at the bottom (fail closed without answerers). An answerer
//     that fails or panics, or that returns a value outside the vocabulary, makes the request
//     unavailable; a context cancelled while waiting makes it cancelled at once and a late answer
//     is discarded. The answerers' context is cancelled when the request settles, so an answerer
//     should watch it: one that ignores it keeps its goroutine until it returns.
//
// Every ask is audited: AskedEvent (approval/asked: id, session, tool, call id, reason, details)
// before the decision and DecidedEvent (approval/decided: id, outcome) after it, plus an Info log
// line each.
//
// Policy: ask | never per session. Service.SetPolicy records an override (the last one wins) and
// refuses anything else with `approval policy must be one of "ask" or "never"`;
// Service.SwitchPolicy does the same for a user's switch and returns the notice
// `The approval policy changed from "<previous>" to "<policy>" (changed by the user).` for the
// host to deliver to the model when the value changes. tools.SessionEnded drops a session's
// override. Service.ContextText renders the model-facing approval:policy statement (ContextName,
// order 115; "" without a session).
//
// Sessions have no event log and no turns, so (a) there is no open-turn precondition, (b) the
// audit pair is a pair of kernel events and log lines rather than session-log records, and (c)
// policy overrides
// live in the service's memory rather than being folded from approval/policy events. A request
// without a session fails with ErrNoSession.
//
// Answerers: a host registers its channel (an MCP elicitation, a terminal prompt, a fixed
// --approve answer) as a listener on RequestEvent, or for one session with OnSession, and shows
// the person tools.ApprovalPrompt of the request (the tool, and when the asker described the call
// in Details, its path, mode, justification and previews, bounded and neutralised):
//
//	userapproval.RequestEvent.On(kc, func(ctx context.Context, req *userapproval.Request,
//		next func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
//		return askTheUser(ctx, req) // or next() to let a later answerer decide
//	})
package userapproval
