package sandbox

// Session is the agent session a call runs in, as the sandbox reads it; the tool layer's
// session (*tools.Session) is one. A policy keys a session's state (its override) by the value,
// so callers pass the session itself, not a copy. A nil Session, an untyped nil, is a call
// without an agent: a caller holding a nil session pointer passes nil, not the pointer.
type Session interface {
	// ID names the session (the SessionID of its policies).
	ID() string
	// Cwd is the session's working directory, "" when it names none: the base of its
	// workspace root.
	Cwd() string
}

// RootedSession is a Session whose client named its workspace roots (MCP roots, docs/host.md
// "Roots from the client"): Cwd is the first, and Roots the others, already in canonical form. A
// policy adds Roots to the writable roots of the session's calls, after the configured ones.
type RootedSession interface {
	Session
	Roots() []string
}
