package engine

// Rooted is a session whose workspace its client can name (MCP roots, docs/host.md "Roots from
// the client"): SetRoots makes cwd the session's working directory and roots the workspace roots
// beside it, for the session's next call.
type Rooted interface {
	SetRoots(cwd string, roots []string)
}

// SetRoots implements Rooted.
func (t *toolsSession) SetRoots(cwd string, roots []string) { t.s.SetRoots(cwd, roots) }
