package sandboxpolicy

import (
	"errors"
	"os"
	"path/filepath"
	"slices"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// ErrNoSession refuses SetMode without a session: an override belongs to one session.
var ErrNoSession = errors.New("sandbox-policy: a mode override needs a session")

// Service is the sandbox policy (docs/sandbox.md "Modes and the policy"): the deployment default
// mode, the fallback workspace root and the per-session overrides. It implements sandbox.Policy and
// is safe for concurrent use.
//
// Sessions have no event log, so the service keeps the last SetMode of each session in memory
// (validated when written) until EndSession drops it.
type Service struct {
	defaultMode sandbox.Mode
	root        string
	// shape is what every resolved policy carries beside mode, root and session: the
	// configured roots, reads and temp roots.
	shape     sandbox.CallPolicy
	log       *zap.Logger
	overrides tools.SessionOverrides[sandbox.Mode]
}

var _ sandbox.Policy = (*Service)(nil)

// New returns a Service for cfg, which is validated. An empty WorkspaceRoot is the process
// working directory; the root is stored as the absolute form of its canonical path. log may be
// nil.
func New(cfg Config, log *zap.Logger) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	root := cfg.WorkspaceRoot
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, errors.New("sandbox-policy: no workspaceRoot configured and the process working directory is unknown: " + err.Error())
		}
		root = wd
	}
	if log == nil {
		log = zap.NewNop()
	}
	shape := sandbox.CallPolicy{ConfineReads: cfg.Reads == ReadsRoots, NoTempRoots: cfg.TempRoots != nil && !*cfg.TempRoots}
	for _, r := range cfg.Roots {
		shape.Roots = append(shape.Roots, resolveRoot(r))
	}
	for _, r := range cfg.ReadOnlyRoots {
		shape.ReadOnlyRoots = append(shape.ReadOnlyRoots, resolveRoot(r))
	}
	return &Service{
		defaultMode: cfg.Mode,
		root:        resolveRoot(root),
		shape:       shape,
		log:         log,
	}, nil
}

// resolveRoot is absolute(CanonicalPath(p)): the physical identity is taken before lexical
// normalization, so "<dir>/link/.." is the physical parent of the link's target. A path that
// does not resolve is kept as spelled, made absolute and cleaned.
func resolveRoot(p string) string {
	c := sandbox.CanonicalPath(p)
	if abs, err := filepath.Abs(c); err == nil {
		return abs
	}
	return filepath.Clean(c)
}

// DefaultMode returns the configured deployment default mode.
func (s *Service) DefaultMode() sandbox.Mode { return s.defaultMode }

// WorkspaceRoot returns the absolute configured fallback root.
func (s *Service) WorkspaceRoot() string { return s.root }

// Resolve returns the execution policy of one call. Mode: explicit when not "", else the
// session's override, else DefaultMode. WorkspaceRoot: absolute(CanonicalPath(...)) of the
// session's cwd, else of the configured root, recomputed on every call. Roots: the configured
// ones, then those a sandbox.RootedSession's client named. SessionID: the session's ID; "" for an
// agentless call (session nil, or a nil *tools.Session).
func (s *Service) Resolve(session sandbox.Session, explicit sandbox.Mode) sandbox.CallPolicy {
	session, _ = agent(session)
	mode := explicit
	if mode == "" {
		if o, ok := s.OverrideOf(session); ok {
			mode = o
		} else {
			mode = s.defaultMode
		}
	}
	base := s.root
	p := s.shape
	p.Mode = mode
	if session != nil {
		if cwd := session.Cwd(); cwd != "" {
			base = cwd
		}
		p.SessionID = session.ID()
		if rs, ok := session.(sandbox.RootedSession); ok {
			if more := rs.Roots(); len(more) > 0 {
				p.Roots = append(slices.Clip(p.Roots), more...)
			}
		}
	}
	p.WorkspaceRoot = resolveRoot(base)
	return p
}

// OverrideOf returns the session's override: the mode of its last SetMode, if any.
func (s *Service) OverrideOf(session sandbox.Session) (sandbox.Mode, bool) {
	if _, ts := agent(session); ts != nil {
		return s.overrides.Get(ts)
	}
	return "", false
}

// SetMode records mode as the session's override; the last one wins and applies from the
// session's next call. A mode outside the vocabulary is refused with an *UnknownModeError
// (`sandbox/mode carries unknown mode "<m>"`) and changes nothing; a nil session is
// ErrNoSession, and so is a session that is not a *tools.Session (an override lives until
// tools.SessionEnded reports its session).
func (s *Service) SetMode(session sandbox.Session, mode sandbox.Mode) error {
	_, ts := agent(session)
	if ts == nil {
		return ErrNoSession
	}
	if !sandbox.ValidMode(mode) {
		return &UnknownModeError{Mode: mode}
	}
	s.overrides.Set(ts, mode)
	s.log.Debug("sandbox mode override", zap.String("session", ts.ID()), zap.String("mode", string(mode)))
	return nil
}

// agent returns session as the service reads it: nil for a call without an agent (a nil
// Session, or a nil *tools.Session in one), and the tools session that carries its override
// (nil for a session of another kind, which has none).
func agent(session sandbox.Session) (sandbox.Session, *tools.Session) {
	ts, ok := session.(*tools.Session)
	if ok && ts == nil {
		return nil, nil
	}
	return session, ts
}

// EndSession drops the session's override.
func (s *Service) EndSession(session *tools.Session) { s.overrides.End(session) }

// Reset drops every override.
func (s *Service) Reset() { s.overrides.Clear() }
