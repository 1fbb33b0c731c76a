package sandboxpolicy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxpolicy"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// docs/tools.md "Sessions": the roots a session's client named (tools.Session.SetRoots) are the
// session's workspace: its cwd is the workspace root and the others are writable after the
// configured roots, in the policy and in its statement; another session, and a call without one,
// keep the configured ones.
func TestResolveAddsTheSessionsClientRoots(t *testing.T) {
	for _, p := range []string{"/ws", "/cfg", "/a", "/b"} {
		noPath(t, p)
	}
	p, _, _ := mounted(t, sandboxpolicy.Config{Mode: sandbox.WorkspaceWrite, WorkspaceRoot: "/ws", Roots: []string{"/cfg"}})
	s := tools.NewSession("s")
	s.SetRoots("/a", []string{"/b"})
	pol := p.Resolve(s, "")
	assert.Equal(t, "/a", pol.WorkspaceRoot)
	assert.Equal(t, []string{"/cfg", "/b"}, pol.Roots)
	assert.Contains(t, sandboxpolicy.PolicyText(pol), `under the session workspace: "/a". Also writable: "/cfg", "/b".`)

	other := p.Resolve(tools.NewSession("o"), "")
	assert.Equal(t, "/ws", other.WorkspaceRoot)
	assert.Equal(t, []string{"/cfg"}, other.Roots)
	assert.Equal(t, []string{"/cfg"}, p.Resolve(nil, "").Roots)

	s.SetRoots("", nil) // the client has no usable root: back to the configured workspace
	assert.Equal(t, "/ws", p.Resolve(s, "").WorkspaceRoot)
	assert.Equal(t, []string{"/cfg"}, p.Resolve(s, "").Roots)
}
