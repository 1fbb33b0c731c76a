package userapproval_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

// Returns the first answering listener outcome (single decision slot): a later
// answerer never runs once an earlier one answered.
func TestFirstAnswerWins(t *testing.T) {
	h := mounted(t, nil)
	h.answer(t, fixed(tools.AllowedOnce))
	secondRan := false
	h.answer(t, func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		secondRan = true
		return tools.Rejected, nil
	})
	got, err := ask(h, context.Background(), tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, got)
	assert.False(t, secondRan)
}

// Drops a disposed plugin listener from the chain (HMR safety).
func TestDisposedAnswererDropped(t *testing.T) {
	h := mounted(t, nil)
	f := h.answer(t, fixed(tools.AllowedOnce))
	got, _ := ask(h, context.Background(), tools.NewSession("s"))
	assert.Equal(t, tools.AllowedOnce, got)
	kerneltest.RequireDispose(t, f)
	got, _ = ask(h, context.Background(), tools.NewSession("s"))
	assert.Equal(t, tools.Unavailable, got)
}

// The gate decides first, even against an answerer registered before the service, and the
// never policy cannot be bypassed by an answerer put in front after the service mounts: it is
// decided inside Request, so no answerer's position opens it.
func TestNeverBeatsEveryAnswererPosition(t *testing.T) {
	e := toolstest.New(t)
	consulted := 0
	grant := func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		consulted++
		return tools.AllowedOnce, nil
	}
	e.Load(t, kernel.Module{ID: "early", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.RequestEvent.On(kc, grant)
		return err
	}}, nil)
	e.Load(t, userapproval.Plugin, userapproval.Config{Policy: userapproval.PolicyNever})
	e.Load(t, kernel.Module{ID: "late", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.RequestEvent.On(kc, grant, kernel.Prepend())
		return err
	}}, nil)
	a, ok := tools.Approval.Get(e.Root)
	require.True(t, ok)
	got, err := a.Request(context.Background(), tools.ApprovalRequest{Session: tools.NewSession("s"), ToolName: "bash"})
	require.NoError(t, err)
	assert.Equal(t, tools.Rejected, got)
	assert.Zero(t, consulted)
}

// Issues a fresh id per request.
func TestFreshIDPerRequest(t *testing.T) {
	h := mounted(t, nil)
	var ids []string
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.AskedEvent.On(kc, func(_ context.Context, a userapproval.Asked) error {
			ids = append(ids, a.ID)
			return nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	s := tools.NewSession("s")
	_, _ = ask(h, context.Background(), s)
	_, _ = ask(h, context.Background(), s)
	require.Len(t, ids, 2)
	assert.NotEqual(t, ids[0], ids[1])
}

// Discards a late REJECTION after abort without an unhandled rejection: an
// answerer that fails after the request was cancelled changes nothing and crashes nothing.
func TestLateFailureAfterAbortIsDiscarded(t *testing.T) {
	h := mounted(t, nil)
	entered, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var decided []tools.ApprovalOutcome
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.DecidedEvent.On(kc, func(_ context.Context, d userapproval.Decided) error {
			decided = append(decided, d.Outcome)
			return nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	h.answer(t, func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		defer close(finished)
		close(entered)
		<-release
		return "", errors.New("answered too late")
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-entered; cancel() }()
	got, err := ask(h, ctx, tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Cancelled, got)
	close(release)
	<-finished
	assert.Equal(t, []tools.ApprovalOutcome{tools.Cancelled}, decided, "exactly one decision")
}

// Settles cancelled immediately on an already-aborted signal without asking
// anyone: the audit pair is still emitted, the decision being cancelled.
func TestAlreadyCancelledIsAudited(t *testing.T) {
	h := mounted(t, nil)
	var log []string
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		if _, err := userapproval.AskedEvent.On(kc, func(_ context.Context, a userapproval.Asked) error {
			log = append(log, "asked "+a.ToolName)
			return nil
		}); err != nil {
			return err
		}
		_, err := userapproval.DecidedEvent.On(kc, func(_ context.Context, d userapproval.Decided) error {
			log = append(log, "decided "+string(d.Outcome))
			return nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := ask(h, ctx, tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Cancelled, got)
	assert.Equal(t, []string{"asked write", "decided cancelled"}, log)
}
