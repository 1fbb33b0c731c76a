package userapproval_test

import (
	"context"
	"errors"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
	"github.com/cordon-dev/cordon/plugins/userapproval"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

type harness struct {
	kc  *kernel.Context
	svc *userapproval.Service
	f   *kernel.Fiber
}

// mounted composes the tools runtime and user-approval with cfg.
func mounted(t *testing.T, cfg any) *harness {
	t.Helper()
	e := toolstest.New(t)
	f := e.Load(t, userapproval.Plugin, cfg)
	a, ok := tools.Approval.Get(e.Root)
	require.True(t, ok)
	svc, ok := a.(*userapproval.Service)
	require.True(t, ok)
	return &harness{kc: e.Root, svc: svc, f: f}
}

// answer registers an answerer in a plugin of its own and returns that plugin's fiber.
func (h *harness) answer(t *testing.T, fn func(ctx context.Context, req *userapproval.Request, next func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error)) *kernel.Fiber {
	t.Helper()
	f, err := h.kc.Load(kernel.Module{ID: "answerer", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.RequestEvent.On(kc, fn)
		return err
	}}, nil)
	require.NoError(t, err)
	kerneltest.RequireActive(t, f)
	return f
}

func fixed(o tools.ApprovalOutcome) func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
	return func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		return o, nil
	}
}

func ask(h *harness, ctx context.Context, s *tools.Session) (tools.ApprovalOutcome, error) {
	return h.svc.Request(ctx, tools.ApprovalRequest{Session: s, ToolName: "write", CallID: "call-1", Reason: "escalate sandbox to workspace-write: why"})
}

// Without answerers the request falls through to the fail-closed default.
func TestNoAnswererIsUnavailable(t *testing.T) {
	h := mounted(t, nil)
	got, err := ask(h, context.Background(), tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Unavailable, got)
}

// An answerer receives the request and its outcome is returned; a passing answerer lets the next
// one decide.
func TestAnswererDecides(t *testing.T) {
	h := mounted(t, nil)
	s := tools.NewSession("s")
	var seen []*userapproval.Request
	h.answer(t, func(_ context.Context, req *userapproval.Request, next func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		seen = append(seen, req)
		return next()
	})
	h.answer(t, fixed(tools.AllowedOnce))
	got, err := ask(h, context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, got)
	require.Len(t, seen, 1)
	assert.Same(t, s, seen[0].Session)
	assert.Equal(t, "write", seen[0].ToolName)
	assert.Equal(t, "call-1", seen[0].CallID)
	assert.Equal(t, "escalate sandbox to workspace-write: why", seen[0].Reason)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`), seen[0].ID)
}

// The details of what the call would do reach the answerers and the audit event unchanged, so
// every channel can show the person what they approve.
func TestDetailsReachAnswerersAndAudit(t *testing.T) {
	h := mounted(t, nil)
	details := &tools.ApprovalDetails{Path: "/etc/cron.d/job", Mode: "danger-full-access", Justification: "why",
		Previews: []tools.ApprovalPreview{{Label: "Content", Text: "* * * * * root x\n"}}}
	var seen, audited *tools.ApprovalDetails
	h.answer(t, func(_ context.Context, req *userapproval.Request, _ func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		seen = req.Details
		return tools.Rejected, nil
	})
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.AskedEvent.On(kc, func(_ context.Context, a userapproval.Asked) error {
			audited = a.Details
			return nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	_, err = h.svc.Request(context.Background(), tools.ApprovalRequest{Session: tools.NewSession("s"), ToolName: "write", Details: details})
	require.NoError(t, err)
	assert.Same(t, details, seen)
	assert.Same(t, details, audited)
}

// A failing or panicking answerer and an outcome outside the vocabulary fail the question closed.
func TestAnswererFailuresAreUnavailable(t *testing.T) {
	for name, fn := range map[string]func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error){
		"error": func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
			return tools.AllowedOnce, errors.New("boom")
		},
		"panic": func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
			panic("boom")
		},
		"bogus": fixed("allowed-always"),
		"empty": fixed(""),
	} {
		h := mounted(t, nil)
		h.answer(t, fn)
		got, err := ask(h, context.Background(), tools.NewSession("s"))
		require.NoError(t, err, name)
		assert.Equal(t, tools.Unavailable, got, name)
	}
}

// Each of the four outcomes passes through as answered.
func TestAnswererOutcomesPassThrough(t *testing.T) {
	for _, o := range []tools.ApprovalOutcome{tools.AllowedOnce, tools.Rejected, tools.Cancelled, tools.Unavailable} {
		h := mounted(t, nil)
		h.answer(t, fixed(o))
		got, err := ask(h, context.Background(), tools.NewSession("s"))
		require.NoError(t, err)
		assert.Equal(t, o, got)
	}
}

// An already-cancelled request is cancelled without asking anyone.
func TestCancelledBeforeAsking(t *testing.T) {
	h := mounted(t, nil)
	called := false
	h.answer(t, func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		called = true
		return tools.AllowedOnce, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := ask(h, ctx, tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Cancelled, got)
	assert.False(t, called)
}

// An abort while waiting settles cancelled at once, even if the answerer ignores it; its late
// answer is discarded.
func TestAbortWhileWaiting(t *testing.T) {
	h := mounted(t, nil)
	entered, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	h.answer(t, func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		defer close(finished)
		close(entered)
		<-release // ignores its context on purpose
		return tools.AllowedOnce, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-entered; cancel() }()
	start := time.Now()
	got, err := ask(h, ctx, tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Cancelled, got)
	assert.Less(t, time.Since(start), 5*time.Second)
	close(release)
	<-finished
}

// The answerers' context is withdrawn when the request settles, so a well-behaved answerer stops.
func TestAnswererContextWithdrawn(t *testing.T) {
	h := mounted(t, nil)
	stopped := make(chan struct{})
	h.answer(t, func(ctx context.Context, _ *userapproval.Request, _ func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		<-ctx.Done()
		close(stopped)
		return tools.AllowedOnce, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got, err := ask(h, ctx, tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Cancelled, got)
	<-stopped
}

// Under never every ask is rejected before any answerer; a session override beats the default
// both ways.
func TestNeverPolicyRejects(t *testing.T) {
	h := mounted(t, userapproval.Config{Policy: userapproval.PolicyNever})
	calls := 0
	h.answer(t, func(context.Context, *userapproval.Request, func() (tools.ApprovalOutcome, error)) (tools.ApprovalOutcome, error) {
		calls++
		return tools.AllowedOnce, nil
	})
	s := tools.NewSession("s")
	got, err := ask(h, context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, tools.Rejected, got)
	assert.Zero(t, calls)

	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyAsk))
	got, _ = ask(h, context.Background(), s)
	assert.Equal(t, tools.AllowedOnce, got)
	assert.Equal(t, 1, calls)

	other := mounted(t, nil)
	other.answer(t, fixed(tools.AllowedOnce))
	s2 := tools.NewSession("s2")
	require.NoError(t, other.svc.SetPolicy(s2, userapproval.PolicyNever))
	got, _ = ask(other, context.Background(), s2)
	assert.Equal(t, tools.Rejected, got)
	got, _ = ask(other, context.Background(), tools.NewSession("s3"))
	assert.Equal(t, tools.AllowedOnce, got, "another session keeps the default")
}

// SetPolicy validates (ErrInvalidPolicy's text), keeps the last value, and changes nothing on a
// refusal.
func TestSetPolicy(t *testing.T) {
	h := mounted(t, nil)
	s := tools.NewSession("s")
	assert.Equal(t, userapproval.PolicyAsk, h.svc.PolicyOf(s))
	_, ok := h.svc.OverrideOf(s)
	assert.False(t, ok)
	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyNever))
	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyAsk))
	p, ok := h.svc.OverrideOf(s)
	assert.True(t, ok)
	assert.Equal(t, userapproval.PolicyAsk, p)
	err := h.svc.SetPolicy(s, "always")
	require.ErrorIs(t, err, userapproval.ErrInvalidPolicy)
	assert.Equal(t, `approval policy must be one of "ask" or "never"`, err.Error())
	assert.Equal(t, userapproval.PolicyAsk, h.svc.PolicyOf(s))
	assert.ErrorIs(t, h.svc.SetPolicy(nil, userapproval.PolicyAsk), userapproval.ErrNoSession)
}

// SwitchPolicy returns the change notice only when the value changes.
func TestSwitchPolicyNotice(t *testing.T) {
	h := mounted(t, nil)
	s := tools.NewSession("s")
	n, err := h.svc.SwitchPolicy(s, userapproval.PolicyAsk)
	require.NoError(t, err)
	assert.Empty(t, n, "unchanged: no notice, no override")
	_, ok := h.svc.OverrideOf(s)
	assert.False(t, ok)
	n, err = h.svc.SwitchPolicy(s, userapproval.PolicyNever)
	require.NoError(t, err)
	assert.Equal(t, `The approval policy changed from "ask" to "never" (changed by the user).`, n)
	assert.Equal(t, userapproval.PolicyNever, h.svc.PolicyOf(s))
	n, _ = h.svc.SwitchPolicy(s, userapproval.PolicyAsk)
	assert.Equal(t, `The approval policy changed from "never" to "ask" (changed by the user).`, n)
	_, err = h.svc.SwitchPolicy(s, "maybe")
	assert.ErrorIs(t, err, userapproval.ErrInvalidPolicy)
	_, err = h.svc.SwitchPolicy(nil, userapproval.PolicyAsk)
	assert.ErrorIs(t, err, userapproval.ErrNoSession)
}

// The approval:policy context statements, verbatim; empty without an agent.
func TestContextText(t *testing.T) {
	h := mounted(t, nil)
	s := tools.NewSession("s")
	assert.Equal(t, "Approval policy: ask. Operations that require approval may ask through the configured answerers; without an available answerer, the request fails closed.", h.svc.ContextText(s))
	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyNever))
	assert.Equal(t, "Approval prompts are disabled in this session: actions that require approval are rejected automatically — do not request sandbox escalation (do not set `sandbox_permissions`).", h.svc.ContextText(s))
	assert.Equal(t, "", h.svc.ContextText(nil))
	assert.Equal(t, "", userapproval.PolicyText("x"))
	assert.Equal(t, "approval:policy", userapproval.ContextName)
	assert.Equal(t, 115, userapproval.ContextOrder)
}

// Every ask is audited: one asked, then one decided with the same id and the outcome.
func TestAuditPair(t *testing.T) {
	h := mounted(t, userapproval.Config{Policy: userapproval.PolicyNever})
	var mu sync.Mutex
	var log []string
	var askedID, decidedID string
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		if _, err := userapproval.AskedEvent.On(kc, func(_ context.Context, a userapproval.Asked) error {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, "asked "+a.ToolName+" "+a.CallID+" "+a.Reason)
			askedID = a.ID
			return errors.New("an auditor cannot fail the request")
		}); err != nil {
			return err
		}
		_, err := userapproval.DecidedEvent.On(kc, func(_ context.Context, d userapproval.Decided) error {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, "decided "+string(d.Outcome))
			decidedID = d.ID
			return nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	got, err := ask(h, context.Background(), tools.NewSession("s"))
	require.NoError(t, err)
	assert.Equal(t, tools.Rejected, got)
	assert.Equal(t, []string{"asked write call-1 escalate sandbox to workspace-write: why", "decided rejected"}, log)
	assert.NotEmpty(t, askedID)
	assert.Equal(t, askedID, decidedID)
}

// A request without a session is refused before anything is audited.
func TestRequestNeedsSession(t *testing.T) {
	h := mounted(t, nil)
	asked := 0
	_, err := h.kc.Load(kernel.Module{ID: "auditor", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.AskedEvent.On(kc, func(context.Context, userapproval.Asked) error { asked++; return nil })
		return err
	}}, nil)
	require.NoError(t, err)
	_, err = h.svc.Request(context.Background(), tools.ApprovalRequest{ToolName: "write"})
	assert.ErrorIs(t, err, userapproval.ErrNoSession)
	assert.Zero(t, asked)
}

// OnSession answers for its own session only.
func TestOnSessionScopes(t *testing.T) {
	h := mounted(t, nil)
	mine, theirs := tools.NewSession("mine"), tools.NewSession("theirs")
	_, err := h.kc.Load(kernel.Module{ID: "ui", Apply: func(kc *kernel.Context, _ any) error {
		_, err := userapproval.OnSession(kc, mine, func(context.Context, *userapproval.Request) (tools.ApprovalOutcome, error) {
			return tools.AllowedOnce, nil
		})
		return err
	}}, nil)
	require.NoError(t, err)
	got, _ := ask(h, context.Background(), mine)
	assert.Equal(t, tools.AllowedOnce, got)
	got, _ = ask(h, context.Background(), theirs)
	assert.Equal(t, tools.Unavailable, got)
}

// tools.SessionEnded drops a session's override; disposal withdraws the service.
func TestSessionEndAndDispose(t *testing.T) {
	h := mounted(t, nil)
	s := tools.NewSession("s")
	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyNever))
	require.NoError(t, tools.SessionEnded.Emit(context.Background(), h.kc, s))
	_, ok := h.svc.OverrideOf(s)
	assert.False(t, ok)
	require.NoError(t, h.svc.SetPolicy(s, userapproval.PolicyNever))
	require.NoError(t, h.f.Dispose())
	_, ok = tools.Approval.Get(h.kc)
	assert.False(t, ok)
	_, ok = h.svc.OverrideOf(s)
	assert.False(t, ok)
}

// The config decodes strictly, defaults to ask and refuses anything else at load.
func TestConfig(t *testing.T) {
	decode := func(src string) (any, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		return loader.DecodeConfig(userapproval.Plugin, &n)
	}
	cfg, err := decode("")
	require.NoError(t, err)
	assert.Equal(t, userapproval.PolicyAsk, cfg.(*userapproval.Config).Policy)
	cfg, err = decode("policy: never")
	require.NoError(t, err)
	assert.Equal(t, userapproval.PolicyNever, cfg.(*userapproval.Config).Policy)
	_, err = decode("policy: always")
	assert.EqualError(t, err, `approval policy must be one of "ask" or "never"`)
	_, err = decode("policy: ask\nanswerer: tty")
	var uk *loader.UnknownKeyError
	assert.ErrorAs(t, err, &uk)

	root := toolstest.New(t).Root
	_, err = root.Load(userapproval.Plugin, userapproval.Config{Policy: "sometimes"})
	assert.ErrorIs(t, err, userapproval.ErrInvalidPolicy)
	_, ok := tools.Approval.Get(root)
	assert.False(t, ok)
}

// Concurrent requests and switches are safe (run with -race).
func TestConcurrentRequests(t *testing.T) {
	h := mounted(t, nil)
	h.answer(t, fixed(tools.AllowedOnce))
	sessions := []*tools.Session{tools.NewSession("a"), tools.NewSession("b")}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				s := sessions[(i+j)%2]
				if j%7 == 0 {
					_, _ = h.svc.SwitchPolicy(s, userapproval.Policies[j%2])
				}
				got, err := ask(h, context.Background(), s)
				if err != nil || (got != tools.AllowedOnce && got != tools.Rejected) {
					t.Errorf("got %q %v", got, err)
				}
			}
		}()
	}
	wg.Wait()
}

// The plugin's fx module contributes it under its name.
func TestCatalogRegistration(t *testing.T) {
	cat, err := kernelfx.Catalog(userapproval.Module)
	require.NoError(t, err)
	m, ok := cat.Lookup("user-approval")
	require.True(t, ok)
	assert.Equal(t, userapproval.ID, m.ID)
	assert.Empty(t, m.Inject, "mounts immediately")
}
