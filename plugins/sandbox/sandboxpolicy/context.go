package sandboxpolicy

import (
	"github.com/cordon-dev/cordon/internal/texts"
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
// texts.Quote); temp areas are never enumerated, so the text does not change with TMPDIR. Under
// workspace-write the configured roots are named, the temp sentence is left out without temp roots,
// and confined reads are stated. A mode outside the vocabulary yields "".
func PolicyText(p sandbox.CallPolicy) string {
	switch p.Mode {
	case sandbox.ReadOnly:
		return "Current file policy: read-only. Any available operation enforced by the file sandbox cannot modify files in the standing mode. Do not refuse a required modification from this policy alone: try an available tool normally and follow any denial and escalation guidance it returns."
	case sandbox.WorkspaceWrite:
		text := "Current file policy: workspace-write. Any available operation enforced by the file sandbox may modify files under the session workspace: " +
			texts.Quote(p.WorkspaceRoot) + "."
		if len(p.Roots) > 0 {
			text += " Also writable: " + quoteAll(p.Roots) + "."
		}
		if !p.NoTempRoots {
			text += " Some platform temporary areas may also be writable."
		}
		if p.ConfineReads {
			text += " Files can be read, listed and searched only under these directories"
			if len(p.ReadOnlyRoots) > 0 {
				text += " and the read-only " + quoteAll(p.ReadOnlyRoots)
			}
			text += "; anything else is refused, and only the user can widen the roots."
		}
		return text
	case sandbox.DangerFullAccess:
		return "Current file policy: danger-full-access. The file sandbox does not restrict file modifications by available operations."
	}
	return ""
}

// quoteAll is the JSON-quoted list of paths, comma-separated.
func quoteAll(paths []string) string {
	out := ""
	for i, p := range paths {
		if i > 0 {
			out += ", "
		}
		out += texts.Quote(p)
	}
	return out
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
