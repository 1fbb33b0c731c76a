package sandboxpolicy

import (
	"github.com/cordon-dev/cordon/internal/jstext"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The model-facing runtime-context contribution of the policy (docs/sandbox.md "Modes and the
// policy"): a host that assembles a runtime context before each model request renders ContextText
// under this name, in this order.
const (
	ContextName  = "sandbox:policy"
	ContextOrder = 110
)

// PolicyText is the model-facing statement of the standing policy p (the texts of docs/host.md
// "Server instructions"). The workspace root is embedded with JSON.stringify semantics (see
// jstext.Quote); temp areas are never enumerated, so the text does not change with TMPDIR. A mode
// outside the vocabulary yields "".
func PolicyText(p sandbox.CallPolicy) string {
	switch p.Mode {
	case sandbox.ReadOnly:
		return "Current file policy: read-only. Any available operation enforced by the file sandbox cannot modify files in the standing mode. Do not refuse a required modification from this policy alone: try an available tool normally and follow any denial and escalation guidance it returns."
	case sandbox.WorkspaceWrite:
		return "Current file policy: workspace-write. Any available operation enforced by the file sandbox may modify files under the session workspace: " +
			jstext.Quote(p.WorkspaceRoot) + ". Some platform temporary areas may also be writable."
	case sandbox.DangerFullAccess:
		return "Current file policy: danger-full-access. The file sandbox does not restrict file modifications by available operations."
	}
	return ""
}

// ContextText is the sandbox:policy text of an agent session: PolicyText of the session's
// standing policy (override, else default; the session cwd, else the configured root), resolved
// now. It is "" without a session (no agent).
func (s *Service) ContextText(session *tools.Session) string {
	if session == nil {
		return ""
	}
	return PolicyText(s.Resolve(session, ""))
}
