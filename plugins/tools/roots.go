package tools

import "slices"

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
