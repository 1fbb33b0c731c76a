// Package filetool is the kit for writing file tools: what the stock file tools share (tool-fs's
// read, write, edit and read_image, tool-apply-patch's apply_patch, tool-notebook's notebook_edit),
// exported so that a plugin in its own Go module writes a guarded file tool the way they do.
// docs/filetool.md walks through one, step by step; examples/appendfile is a complete one in its own
// module.
//
// A file tool is a tools.Tool whose body goes through the fs seam (plugins/fs) rather than the
// operating system, so that whatever the composition mounts decides: fs-local or fs-sandbox, the
// observation policy's read gate, fs-history's record. The kit adds what every such body needs
// and would otherwise copy:
//
//   - Env, made once at load by NewEnv: the mounted filesystem (Env.FS), the sandbox hook chosen
//     for it (Env.Sandbox) and Env.Observe, which emits fs/observed with the call as the actor.
//   - SessionCwd and MutationBase: the directory a call's relative file_path resolves against
//     (the session's cwd; for a mutation under a sandbox policy, its workspace root).
//   - Sandbox, Escalation and Action: confinement and escalation. Sandbox.Parameters adds the
//     sandbox_permissions and justification parameters to a mutation's schema when the mounted
//     filesystem confines; Sandbox.ResolvePolicy resolves the call's policy (asking for approval
//     when the call escalates) before anything executes; the policy rides the mutation's context
//     (sandbox.WithPolicy) and Env.MutationFailure maps its denial into the model-facing text.
//   - StartEdit: the steps before an edit of an existing file (resolve under the call's policy, the
//     edit-intent guard), which edit and notebook_edit share.
//   - Env.MutationFailure, Remediate and WithCharsetGuidance: the remedies a failed mutation shows
//     the model (re-read then retry, file has not been read, the charset guidance line).
//   - Budget, NewBudget, KnownBudgets, DefaultBudget, BudgetErrors, FitError and CutLines: the
//     result budget, the most bytes one result may hand the model, per MCP client.
//   - FileDiff, DiffMeta and ComputeHunkDiffs: the replayable diff meta of a change.
//   - Env.AdmitImage, ImageAdmission, SniffImage, SniffImageType, ImageExtension and ExtName:
//     read_image's admission gates, for a tool that hands the model an image.
//   - NoWriteIntent and NoEditGuard: the defaults of the fs/write-intent and fs/edit-intent
//     waterfalls (no guard when no observation policy is composed).
//
// A guarded mutation, in the order every stock mutation runs it:
//
//	policy, err := env.Sandbox.ResolvePolicy(ctx, "append", esc, exec, filetool.Action{FilePath: p})
//	target, err := env.FS.Resolve(ctx, p, fs.ResolveOptions{Cwd: filetool.MutationBase(policy, exec, p)})
//	intent, err := fs.WriteIntentEvent.Run(ctx, env.KC, fs.IntentArgs{Target: target, Actor: exec}, filetool.NoWriteIntent)
//	out, err := env.FS.WriteText(sandbox.WithPolicy(ctx, policy), target, text, intent)
//	if err != nil {
//		return v, env.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
//	}
//	err = env.Observe(ctx, target, fs.Present(out.Version), exec)
//
// and its Execute is BudgetErrors(budget, body), so that a failure's guidance never pushes the
// result past what the client shows.
//
// The kit imports the kernel and the fs, tools, sandbox and attachments seams, never a plugin
// (docs/layering.md: it is a kit beside the tools seam), and none of its exported signatures names
// a package under an internal/ directory, so another module can use all of it.
package filetool

// PathRule is the one rule of every file tool's paths, in the same words in each tool's parameter
// descriptions and in apply_patch's description (docs/tool-fs.md "Paths and the session's working
// directory").
const PathRule = "Absolute, or relative to the session's working directory."
