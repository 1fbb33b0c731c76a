package toolstest

import (
	"context"
	"slices"
	"sync"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// Approver is a fake approval seam (tools.Approver): it records every request with the context it
// came with, and answers through Answer when that is set, else with Outcome and Err. The zero
// Approver answers the empty outcome, which the runtime refuses as unknown. It is safe for
// concurrent use.
type Approver struct {
	Outcome tools.ApprovalOutcome
	Err     error
	Answer  func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error)

	mu       sync.Mutex
	requests []tools.ApprovalRequest
	contexts []context.Context
}

var _ tools.Approver = (*Approver)(nil)

// AllowOnce returns an Approver that grants every request once.
func AllowOnce() *Approver { return &Approver{Outcome: tools.AllowedOnce} }

// Reject returns an Approver whose user rejects every request.
func Reject() *Approver { return &Approver{Outcome: tools.Rejected} }

// Cancel returns an Approver whose user cancels every request.
func Cancel() *Approver { return &Approver{Outcome: tools.Cancelled} }

// Unavailable returns an Approver with no channel to a user.
func Unavailable() *Approver { return &Approver{Outcome: tools.Unavailable} }

// Failing returns an Approver whose every request fails with err.
func Failing(err error) *Approver { return &Approver{Err: err} }

// Answering returns an Approver that answers through fn.
func Answering(fn func(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error)) *Approver {
	return &Approver{Answer: fn}
}

// Request records req and ctx and answers.
func (a *Approver) Request(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	a.mu.Lock()
	a.requests = append(a.requests, req)
	a.contexts = append(a.contexts, ctx)
	answer, outcome, err := a.Answer, a.Outcome, a.Err
	a.mu.Unlock()
	if answer != nil {
		return answer(ctx, req)
	}
	return outcome, err
}

// Requests returns the requests received so far, in order.
func (a *Approver) Requests() []tools.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.requests)
}

// Contexts returns the context of each request received so far, in order.
func (a *Approver) Contexts() []context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.contexts)
}
