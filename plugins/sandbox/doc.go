// Package sandbox is the sandbox vocabulary and seam shared by the sandbox plugins and the tools
// that consult them (docs/sandbox.md, and docs/tool-fs.md "Sandbox escalation"):
//
//   - the modes (Mode: ReadOnly, WorkspaceWrite, DangerFullAccess; Modes, ValidMode), their strictly-wider ladder (Wider, IsWider), the escalation
//     targets advertised in tool schemas, and the model-facing DenialMarker and EscalationHint;
//   - the roots: CanonicalPath (native realpath, unchanged on failure), WritableRoots of a policy
//     (the workspace root, /tmp and TempDir ($TMPDIR) under workspace-write, a temp root that is /,
//     the home or an ancestor of the home ignored and reported; none otherwise) and IsPathUnder /
//     UnderRoot (a lexical test with a separator boundary, then a device and inode walk);
//   - escalation: ValidateEscalationArgs (the pairing of sandbox_permissions and justification) and
//     ApproveEscalation (ordered and fail-closed: strictly wider, an approval service, an agent, one
//     question, the outcome mapped to a grant or an *EscalationError, which reports
//     {SandboxEscalationError, SANDBOX_ESCALATION_*} to the tool runtime, EscalationCodes);
//   - the policy of one call (CallPolicy), which rides the context of the mutation it governs
//     (WithPolicy, PolicyFrom), and the capability fact of a filesystem that enforces it: an
//     fs.FileSystem that confines implements Confiner (its default mode; ConfiningMode), so the fs
//     seam below carries neither;
//   - the PolicyService seam ("sandboxPolicy"), provided by the sandbox-policy plugin
//     (package sandboxpolicy); the confining filesystem is the fs-sandbox plugin (package fssandbox).
//
// The seam imports only the fs seam (and libraries), not the tools seam: what it needs of an agent
// session is Session (an ID and a cwd; *tools.Session is one), and of the approval service an
// Asker, which the calling tool binds to its call over the approval seam it composes.
//
// Modes describe file effects only: read-only denies every mutation, workspace-write allows
// mutations under the writable roots, danger-full-access does not confine.
//
//	if !sandbox.IsWider(requested, effective) {
//		// refuse the escalation without asking anyone
//	}
package sandbox
