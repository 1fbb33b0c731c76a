package userapproval

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ErrNoSession refuses a request or a policy switch without an agent session: questions are
// asked for, and policies belong to, one session.
var ErrNoSession = errors.New("user-approval: an approval request needs an agent session")

// Service is the approval service (docs/sandbox.md "The approval service"; it has
// no turns). It implements tools.Approver and is safe for concurrent use.
type Service struct {
	kc            *kernel.Context
	defaultPolicy Policy
	log           *zap.Logger
	overrides     tools.SessionOverrides[Policy]
}

var _ tools.Approver = (*Service)(nil)

// New returns a Service whose waterfall and audit events dispatch in kc (the plugin's context).
// cfg is validated; log may be nil.
func New(kc *kernel.Context, cfg Config, log *zap.Logger) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Service{kc: kc, defaultPolicy: cfg.Policy, log: log}, nil
}

// Request asks once and returns one outcome; AllowedOnce is the only grant and nothing is
// remembered. The decision, in order: a cancelled ctx is Cancelled; a session whose effective
// policy is never is Rejected (decided here, before any answerer); otherwise RequestEvent runs,
// with Unavailable at the bottom, an answerer's error or panic and an outcome outside the
// vocabulary made Unavailable, and a ctx cancelled while waiting made Cancelled at once (a late
// answer is discarded). Every ask is audited: AskedEvent before, DecidedEvent after, same ID.
// A request without a session fails with ErrNoSession before anything is audited.
func (s *Service) Request(ctx context.Context, req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	if req.Session == nil {
		return "", ErrNoSession
	}
	r := &Request{ID: newID(), Session: req.Session, ToolName: req.ToolName, CallID: req.CallID, Reason: req.Reason, Details: req.Details}
	AskedEvent.EmitContained(ctx, s.kc, Asked{ID: r.ID, Session: r.Session, ToolName: r.ToolName, CallID: r.CallID, Reason: r.Reason, Details: r.Details})
	s.log.Info("approval asked", zap.String("id", r.ID), zap.String("session", r.Session.ID()),
		zap.String("tool", r.ToolName), zap.String("call", r.CallID), zap.String("reason", r.Reason))
	outcome := s.decide(ctx, r)
	DecidedEvent.EmitContained(context.WithoutCancel(ctx), s.kc, Decided{ID: r.ID, Session: r.Session, Outcome: outcome})
	s.log.Info("approval decided", zap.String("id", r.ID), zap.String("outcome", string(outcome)))
	return outcome, nil
}

// decide runs the decision of one ask.
func (s *Service) decide(ctx context.Context, r *Request) tools.ApprovalOutcome {
	if ctx.Err() != nil {
		return tools.Cancelled
	}
	if s.PolicyOf(r.Session) == PolicyNever {
		return tools.Rejected
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answer := make(chan tools.ApprovalOutcome, 1)
	go func() {
		answer <- s.ask(ctx, r)
	}()
	select {
	case outcome := <-answer:
		if ctx.Err() != nil {
			return tools.Cancelled
		}
		return outcome
	case <-ctx.Done():
		return tools.Cancelled
	}
}

// ask dispatches RequestEvent and normalizes its result to the closed vocabulary.
func (s *Service) ask(ctx context.Context, r *Request) (outcome tools.ApprovalOutcome) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Warn("approval answerer panicked", zap.String("id", r.ID), zap.Any("panic", p))
			outcome = tools.Unavailable
		}
	}()
	got, err := RequestEvent.Run(ctx, s.kc, r, func() (tools.ApprovalOutcome, error) { return tools.Unavailable, nil })
	if err != nil {
		s.log.Warn("approval answerer failed", zap.String("id", r.ID), zap.Error(err))
		return tools.Unavailable
	}
	switch got {
	case tools.AllowedOnce, tools.Rejected, tools.Cancelled, tools.Unavailable:
		return got
	}
	s.log.Warn("approval answerer returned an unknown outcome", zap.String("id", r.ID), zap.String("outcome", string(got)))
	return tools.Unavailable
}

// DefaultPolicy returns the configured default policy.
func (s *Service) DefaultPolicy() Policy { return s.defaultPolicy }

// OverrideOf returns the session's policy override, if one was set.
func (s *Service) OverrideOf(session *tools.Session) (Policy, bool) {
	if session == nil {
		return "", false
	}
	return s.overrides.Get(session)
}

// PolicyOf returns the session's effective policy: its override, else the default.
func (s *Service) PolicyOf(session *tools.Session) Policy {
	if p, ok := s.OverrideOf(session); ok {
		return p
	}
	return s.defaultPolicy
}

// SetPolicy records policy as the session's override (the last one wins). A policy outside the
// vocabulary is ErrInvalidPolicy and changes nothing; a nil session is ErrNoSession.
func (s *Service) SetPolicy(session *tools.Session, policy Policy) error {
	if session == nil {
		return ErrNoSession
	}
	if !policy.Valid() {
		return ErrInvalidPolicy
	}
	s.overrides.Set(session, policy)
	s.log.Debug("approval policy override", zap.String("session", session.ID()), zap.String("policy", string(policy)))
	return nil
}

// SwitchPolicy is the user's switch of a live session: when the effective policy changes it
// records the override and returns ChangeNotice(previous, policy), the user message the host
// delivers to the model; when it does not change it records nothing and returns "".
func (s *Service) SwitchPolicy(session *tools.Session, policy Policy) (string, error) {
	if session == nil {
		return "", ErrNoSession
	}
	if !policy.Valid() {
		return "", ErrInvalidPolicy
	}
	notice := ""
	s.overrides.Update(session, func(previous Policy, ok bool) (Policy, bool) {
		if !ok {
			previous = s.defaultPolicy
		}
		if previous == policy {
			return previous, false
		}
		notice = ChangeNotice(previous, policy)
		return policy, true
	})
	return notice, nil
}

// ContextText is the approval:policy text of an agent session ("" without one).
func (s *Service) ContextText(session *tools.Session) string {
	if session == nil {
		return ""
	}
	return PolicyText(s.PolicyOf(session))
}

// EndSession drops the session's override.
func (s *Service) EndSession(session *tools.Session) { s.overrides.End(session) }

// Reset drops every override.
func (s *Service) Reset() { s.overrides.Clear() }

// newID returns a random version-4 UUID.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
