// Package appendfile is a third-party Cordon plugin, "append-file", kept in its own Go module to
// show how a guarded file tool is written outside the repository with the file-tool kit
// (plugins/tools/filetool, docs/filetool.md).
//
// It registers one tool, append, which adds text to the end of a file:
//
//	{"file_path": "notes.md", "content": "- buy milk\n"}
//
// It is guarded as the stock write is: a relative file_path resolves against the session's
// working directory (under a sandbox policy, its workspace root); a file that exists must have
// been read first (the observation policy's read gate: an unread or changed file is refused with
// the stock remedies, and nothing is written); a missing file is created; under fs-sandbox the
// append is confined like a write and offers the same escalation (sandbox_permissions and
// justification, approved by the user for this call alone); the file is recorded as observed at
// its new version, so appends may follow one another; a failure's text fits the client's result
// budget. The result is
//
//	Appended 10 bytes to /work/notes.md
//
// with the change's diff as presentation meta.
//
// Config (YAML keys; all optional):
//
//	resultBudget:         the result budget in bytes of a client not listed below (default 36000)
//	resultBudgetByClient: the budget of the clients it names, by clientInfo name (default
//	                      {claude-code: 48000})
//
// The plugin imports the kernel, the fs, sandbox and tools seams and the file-tool kit, never a
// provider: removing it from a composition leaves every other plugin working.
package appendfile
