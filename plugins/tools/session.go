package tools

import (
	"encoding/json"
	"slices"
	"sync"
)

// Header is the mutable part of a session that tools read: the working
// directory relative paths resolve against ("" = the provider default),
// the model the session talks to ("" = the model catalog's default), and the
// client that drives it as it named itself (an MCP client's clientInfo name
// and version; "" when unknown), which sizes the result budget.
type Header struct {
	Cwd           string
	Model         string
	Client        string
	ClientVersion string
}

// Session is one agent session: an identity (the pointer) that policies key
// their state by, an ID for logs and approval prompts, and a header guarded by
// a lock. End it with Runtime.EndSession so policies drop its state.
type Session struct {
	id      string
	mu      sync.RWMutex
	header  Header
	durable string   // SetDurableOwner
	roots   []string // SetRoots
}

// NewSession returns a session with an empty header.
func NewSession(id string) *Session { return &Session{id: id} }

// ID returns the identifier given to NewSession.
func (s *Session) ID() string { return s.id }

// Header returns a copy of the current header.
func (s *Session) Header() Header {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.header
}

// Cwd returns the header's working directory ("" = the provider default).
func (s *Session) Cwd() string { return s.Header().Cwd }

// SetHeader replaces the header.
func (s *Session) SetHeader(h Header) {
	s.mu.Lock()
	s.header = h
	s.mu.Unlock()
}

// UpdateHeader changes the header under the lock.
func (s *Session) UpdateHeader(fn func(h *Header)) {
	s.mu.Lock()
	fn(&s.header)
	s.mu.Unlock()
}

// Call is what a host hands to Runtime.Execute.
type Call struct {
	// CallID identifies the call (the model's tool-call id).
	CallID string
	// RootCallID is the model-requested call owning a nested call; "" means
	// CallID.
	RootCallID string
	// Name is the tool name.
	Name string
	// Args are the arguments: JSON text (json.RawMessage, []byte) or a Go value
	// encoded with encoding/json. They must be a lossless JSON value; nil fails.
	// JSON text is copied when the call starts (the snapshot): the caller may
	// reuse its buffer once Execute has been called.
	Args any
	// Session is the agent session the call runs in; nil for a call with no
	// agent session.
	Session *Session
	// Parent is the enclosing execution of a nested call (no presentation meta
	// is computed for nested calls); nil for a top-level call.
	Parent *Exec
	// SkipMeta skips Tool.PresentationMeta for this call: Result.Meta
	// stays nil and the projector is neither run nor checked. A host sets it
	// when it never sends the presentation meta anywhere (an MCP server); a
	// host that reports meta (the run protocol) leaves it false. The content,
	// value and every error are the same either way, except a failure the
	// projector itself would have caused (a panic or non-lossless meta).
	SkipMeta bool
	// SkipValue says the host drops Result.Value (an MCP server without structured content). With
	// SkipMeta, and while every listener that sees results is ValueBlind, it lets a tool build only
	// what its content needs (Exec.ContentOnly); the content and every error are the same either way.
	SkipValue bool
}

// Exec is the execution object of one call. The runtime creates it; every
// listener, guard and the body receive the same pointer, and the fs seam gets
// it as the opaque actor. Treat it as immutable.
type Exec struct {
	// CallID and RootCallID identify the call (RootCallID = CallID for a
	// top-level call).
	CallID     string
	RootCallID string
	// Name is the requested tool name (possibly unknown).
	Name string
	// Args is the compact, lossless JSON snapshot of the arguments, taken
	// before any policy ran. Never modify it; the body gets its own copy.
	Args json.RawMessage
	// Session is the agent session; nil for a call with no agent session.
	Session *Session
	// Parent is the enclosing execution of a nested call.
	Parent *Exec

	skipMeta    bool // Call.SkipMeta
	contentOnly bool // ContentOnly, decided once by Execute
	in          any  // the decoded arguments, once the body's step decoded them
}

// ContentOnly reports whether only the content of the call's result is used: a top-level call
// whose host drops the value (Call.SkipValue) and builds no presentation meta (Call.SkipMeta),
// while every listener that sees results is ValueBlind. A tool may then leave out of its value
// what only the value shows (read: its lines), as long as its rendered content is the same.
func (e *Exec) ContentOnly() bool {
	return e != nil && e.contentOnly
}

// SessionKey returns the session the call runs in as an opaque owner key,
// or nil (an untyped nil) when the call has no agent session. Policies that
// key state by owner use it through a narrow interface.
func (e *Exec) SessionKey() any {
	if e == nil || e.Session == nil {
		return nil
	}
	return e.Session
}

// Header returns the session header, or the zero Header without a session.
func (e *Exec) Header() Header {
	if e == nil || e.Session == nil {
		return Header{}
	}
	return e.Session.Header()
}

// SetRoots makes the session's workspace the roots its client named (MCP roots; docs/host.md
// "Roots from the client"): cwd, the first, becomes the header's working directory and the others
// are kept as Roots, both at once. A host calls it when the client's roots arrive or change; the
// session's next call runs under them.
func (s *Session) SetRoots(cwd string, roots []string) {
	s.mu.Lock()
	s.header.Cwd = cwd
	s.roots = slices.Clone(roots)
	s.mu.Unlock()
}

// Roots returns the workspace roots besides the cwd that SetRoots set (nil without any). The
// slice is the session's: callers do not change it.
func (s *Session) Roots() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.roots
}

// SetDurableOwner names the owner the session's observations are kept under across restarts (an
// authenticated principal; docs/history.md "Observations across restarts"). A host sets it once,
// before the session's first call; "" (the default) keeps them per session.
func (s *Session) SetDurableOwner(name string) {
	s.mu.Lock()
	s.durable = name
	s.mu.Unlock()
}

// DurableOwner returns what SetDurableOwner set.
func (s *Session) DurableOwner() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.durable
}

// DurableOwner returns the durable owner of the call's session ("" without one); it makes an Exec
// an fs.DurableOwner actor.
func (e *Exec) DurableOwner() string {
	if e == nil || e.Session == nil {
		return ""
	}
	return e.Session.DurableOwner()
}

// ValueBlind is the kernel.Tag of a listener on tools/execute, tools/execute-change,
// tools/post-execute or tools/result that never reads a Result's Value (it may read and replace
// the content, block, or pass the result on):
//
//	tools.PostExecute.On(kc, fn, kernel.Tag(tools.ValueBlind))
//
// A call whose host drops the value is built for its content alone (Exec.ContentOnly) only while
// every live listener on those keys carries the tag; any other listener sees every value whole.
const ValueBlind = "tools/value-blind"

// valueUnread reports whether no live listener that may read a result's value listens on the keys
// that see one (each carries ValueBlind).
func (r *Runtime) valueUnread() bool {
	return ExecuteStep.ListenersExcept(r.kc, ValueBlind) == 0 && ChangeStep.ListenersExcept(r.kc, ValueBlind) == 0 &&
		PostExecute.ListenersExcept(r.kc, ValueBlind) == 0 && ResultEvent.ListenersExcept(r.kc, ValueBlind) == 0
}
