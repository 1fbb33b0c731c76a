// Package toolfs is the plugin "tool-fs": the model-facing read, write and edit tools over the
// ctx.fs seam (package fs), registered in the ctx.tools runtime (package tools), and read_image
// over the fs and attachments seams.
//
// The plugin owns the schemas, the argument checks, read windowing and rendering, the result
// envelopes, the diff presentation meta, the model-facing remedies and the guidance sections. It
// talks to the mounted fs.FileSystem directly and to any observation policy only through the fs/*
// events: with no policy the intent waterfalls fall through to "no guard" and write and edit are
// unconditional (still atomic).
//
// # Contract
//
//   - read: resolve (session cwd: docs/tool-fs.md "Paths and the session's working directory"),
//     exactly one Stat, then ReadText for files below
//     readStreamMinSize or StreamText otherwise (or when the size is unknown), the window, and
//     fs/observed present at the Stat's version; a provider that implements fs.StatReader answers
//     the Stat and the ReadText in one StatText, whose version is the bytes read. A missing file emits fs/observed absent, then fails
//     FS_NOT_FOUND; a non-regular file fails FS_NOT_REGULAR_FILE without an observation; an offset
//     past the end fails FS_NOT_FOUND `offset N is out of range for "<p>" (T lines)` without one.
//     read is concurrency-safe. Read errors are never remediated.
//   - write: resolve, the fs/write-intent waterfall (default nil), WriteText, fs/observed present
//     at the outcome's version. No Stat.
//   - edit: resolve, the fs/edit-intent waterfall (default nil; a decider may refuse), EditText,
//     fs/observed present at the outcome's version. No Stat.
//   - Remedies (write and edit only): FS_STALE_VERSION keeps its reason and gains
//     " — re-read the file, then retry"; every FS_NOT_OBSERVED becomes exactly
//     `cannot modify "<p>": file has not been read — read the file, then retry` (docs/tool-fs.md
//     "Errors of `write` and `edit`"). The
//     code is kept and the original error is the cause. An FS_NOT_OBSERVED over a file that read
//     refuses as binary or invalid UTF-8, and that read_image could not read in this call either,
//     is never raised to the model: it fails FS_NOT_TEXT `cannot write "<p>": binary file` (or
//     `invalid UTF-8 text`; edit: `cannot edit ...`) instead (docs/fs.md, "A file no tool can
//     read").
//   - Every fs/* dispatch passes the call's *tools.Exec as the actor.
//   - read_image (readimage*.go, docs/tool-fs.md "read_image", extension-less paths included):
//     registered by a child instance that injects attachments.Service, so it exists exactly while
//     a store is mounted. Before any I/O: a blank path; the extension (Node extname, lower-cased;
//     none is accepted, a non-image one refused); the store (defensive); the declared type against
//     the deployment's media types; the route gate (tools.ModelFor: the session's model, else the
//     catalog's default; no session, catalog or model: unresolved; a model without image input
//     refused). Then resolve, one Stat (absent observed, then FS_NOT_FOUND; non-regular refused),
//     ReadBytes capped at min(maxImageBytes, maxMessageImageBytes), the signature check of an
//     extension-less file, SaveImage (remedies keep the store error as cause), a verified
//     ReadImage for the image block's bytes, and fs/observed present at the Stat's version. The
//     value is {path, image: ref}; the content is the envelope text and the image block; the meta
//     is {path}.
//
// # The read window
//
// Window consumes text in chunks (strings or bytes; boundaries carry no meaning) and never retains
// them. Lines end at '\n' only, one trailing '\r' is dropped, a final '\n' starts no line. Memory
// is bounded independently of the file: lines before the offset and after the selection are only
// counted, in bulk, and the current line keeps at most readMaxLineLength+1 code points (the unit is
// the Unicode code point: docs/tool-fs.md "The window"). The byte cap counts the selected line
// texts (after truncation, suffix included) plus one byte per joining newline. The result budget
// (WindowRequest.Budget, from the session's client: docs/tool-fs.md "The result budget") is a
// second stop that counts the whole rendered text; the first line is always kept, cut to fit.
//
// # Presentation meta
//
// read: {path, offset, lines, totalLines, lang?}, lang from the extension (LangFromPath).
// write: {diffs: []} for a create or a declined basis, else the hunks of before/after.
// edit: the hunks of before/after. Hunks (ComputeHunkDiffs) come from a line diff with three lines
// of context; changes separated by at most six unchanged lines share a hunk. Diff paths use the raw
// file_path argument.
//
// # UI presenters
//
// PresentReadCall, PresentWriteCall, PresentEditCall and PresentReadResult, PresentWriteResult,
// PresentEditResult are the pure, replay-safe views for a user interface (docs/tool-fs.md "For Go
// hosts and user interfaces"); they decline (nil) for arguments that do not match the schema, error
// results and malformed meta (DiffsFromMeta, ReadMetaFromMeta). The model-facing path never uses
// them.
//
// # Sandbox
//
// The per-call sandbox policy of write and edit (docs/tool-fs.md "Sandbox escalation"; the hook is
// plugins/tools/filetool's, shared with apply_patch) is chosen once, at load, from the mounted filesystem's capability fact (sandbox.ConfiningMode: whether it
// implements sandbox.Confiner, and its default mode):
//
//   - the filesystem never confines: no escalation fields and no policy. The escalation
//     arguments, which the open parameter root still lets through, are validated for pairing
//     (`invalid escalation: ...`) and then refused: `sandbox_permissions is not available in this
//     composition (no sandboxing filesystem to escalate)`.
//   - it confines: sandbox.PolicyService must be composed, else the load
//     fails with `tool-fs: the mounted filesystem confines but no sandbox policy service is composed`.
//     write and edit advertise sandbox_permissions (enum sandbox.EscalationTargets) and
//     justification after their own properties. Each call validates the pairing, resolves the
//     standing policy of its session (the agentless policy without one), and, when both fields
//     are present, runs sandbox.ApproveEscalation through the approval service composed at that
//     moment (tools.Approval); a grant replaces the mode for that call only and is never
//     recorded. The policy's workspace root is the resolve base and the policy rides the
//     mutation's context (sandbox.WithPolicy), where the filesystem reads it. An FS_SANDBOX_DENIED failure reaches the model as the denial marker of
//     the stamped mode, a newline and the escalation hint (code kept, original as cause); the
//     remedies of FS_STALE_VERSION and FS_NOT_OBSERVED do not touch it.
package toolfs
