// Package sandboxpolicy is the sandbox-policy plugin: it provides sandbox.PolicyService
// ("sandboxPolicy"), the single owner of the deployment default sandbox mode, the fallback
// workspace root, the per-session mode override and per-call policy resolution (docs/sandbox.md
// "Modes and the policy").
//
// Configuration (strict: unknown keys are errors):
//
//	plugins:
//	  - name: sandbox-policy
//	    config:
//	      mode: workspace-write   # read-only (default) | workspace-write | danger-full-access
//	      workspaceRoot: /srv/ws  # default: the process working directory at load
//
// A mode outside the vocabulary fails the load. The configured root is stored as
// absolute(CanonicalPath(root)).
//
// Resolution of one call (Service.Resolve): mode = the explicit (approved) mode, else the
// session's override, else the default; workspace root = the canonical absolute form of the
// session's header cwd, else of the configured root, recomputed on every call so identity is
// taken now; SessionID = the session's ID, "" for an agentless call.
//
// Overrides: sessions have no event log, so Service.SetMode keeps the last mode per session
// (pointer identity) in memory, validated at write time (`sandbox/mode carries unknown mode
// "<m>"`); tools.SessionEnded drops a session's override, disposal drops them all. Grants of
// escalations are never recorded here: they ride exactly one call.
//
// Model-facing context: PolicyText renders the verbatim standing-policy statement (docs/host.md
// "Server instructions") and Service.ContextText renders it for a session ("" without one); a host
// that assembles a runtime context shows it under ContextName ("sandbox:policy"), order 110.
package sandboxpolicy
