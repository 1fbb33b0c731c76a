// Package app is the harness host as a library: the command line of cmd/harness (serve, run, tools,
// plugins, config), reusable by custom hosts that add their own plugins.
//
// # Commands
//
//	harness serve   [--config FILE | --profile NAME] [--cwd DIR] [--log-level LEVEL] [--structured-content]
//	harness run     [--config FILE | --profile NAME] [--cwd DIR] [--log-level LEVEL] [--approve allow-once|reject]
//	harness tools   print the tool definitions as JSON (exactly what tools/list sends)
//	harness plugins print the catalog, one module per line with the services it waits for
//	harness config  compose and print the plugin tree with each entry's state
//
// Without --config an embedded profile is composed: "default" (fs-local with cwd = --cwd or the
// working directory, fs-observation-policy, tools, tool-fs, tool-fs-search, attachment-local, model-catalog) or
// "sandboxed" (sandbox-policy in workspace-write with the workspace = that directory, fs-sandbox in
// place of fs-local, and user-approval). Every enabled entry must become
// active (the boot audit): an unknown plugin, an unknown config key, a bad value or a missing
// dependency fails at start with a message naming the entry, and exit status 1. Usage errors exit
// with 2. Logs go to stderr (zap, console encoding); stdout carries only the protocol or the
// printed output. serve and run log one ready line naming the config and the tools.
//
// # serve
//
// MCP over stdio with the official Go SDK. One connection is one tools.Session, opened on the first
// call and ended (Runtime.EndSession) when the connection closes; with --cwd the session header's
// cwd is set to it, otherwise the provider's default applies. tools/list sends each visible tool's
// parameter schema byte for byte (and its output schema), with annotations readOnlyHint /
// destructiveHint (the SDK lists tools sorted by name), and follows the runtime's tools/change events
// (a tool that goes away leaves the list, with notifications/tools/list_changed); the guidance of the
// visible tools, then a composed sandbox-policy's and user-approval's standing statements, is the
// server instructions. tools/call returns
// the content blocks (text, image), isError, and _meta.error = {name, code} on a failure that carries
// a code. With --structured-content the tools also list their output schemas and a success carries
// structuredContent = the canonical value; without it (the default) neither is sent, because
// structuredContent-first clients (Claude Code, Codex, opencode) would show the model that JSON
// instead of the content blocks. Approval prompts go to the client
// through elicitation when it declares the capability; otherwise they are unavailable (a decline is a
// rejection, a cancel or an unknown action a cancellation, an answer off the form's schema
// unavailable). Calls on one connection run concurrently; ending serve (SIGTERM) cancels the calls
// in flight, an approval prompt included, and a client that disconnects ends its session.
//
// Protocol versions 2024-11-05 to 2025-11-25 (initialize handshake; approvals are elicitation
// requests sent during the call) and 2026-07-28 (server/discover; one stdio process is one session;
// an approval is an input request: the call answers with CallToolResult.InputRequests and a signed
// RequestState, and runs again when the client retries with the answer; a state answers one
// question of that exact call once, within ten minutes). stdin and stdout are framed and checked by
// internal/mcpstdio. A plain tools/call on stdio (a served tool's name, arguments, a _meta without
// the protocol's keys, on an initialized connection before 2026-07-28) is run by the host outside the
// SDK's dispatch (directCalls), with the same handler and encoding; any other call's result is
// encoded once, by receiving middleware (wireResult), and spliced into its response by the
// transport, so the SDK's validating re-encodings scan a short token instead of the result. Either
// way the JSON values on the wire are the SDK's.
//
// # run
//
// One JSON object per input line:
//
//	{"id": any, "tool": "read", "args": {...}, "session": "s1", "cwd": "/abs", "model": "m"}
//
// session defaults to "default"; calls naming the same session share one observation owner;
// "session": null runs a call with no agent session; cwd (absolute) and model set that session's
// header from this call on (a new session starts with --cwd when given). One line is written and
// flushed per input line, in order:
//
//	{"id", "tool", "isError", "text", "content", "code", "errorName", "value", "meta"}
//
// text joins the text blocks with "\n"; content lists the blocks ({"type":"text","text"} or
// {"type":"image","mediaType","data"}); code/errorName are the error's structured info or null; value
// is the canonical value on success or null; meta the presentation meta or null. A malformed line
// (not a JSON object, no tool, a bad session, cwd or model) is answered with isError, code
// "INVALID_REQUEST", errorName "RequestError", and the run goes on. Every session ends at EOF.
// Approval prompts are answered by --approve (none: unavailable). An id with invalid UTF-8 is echoed
// with U+FFFD in its place, so every output line is UTF-8. A closed stdout (EPIPE) ends the run
// cleanly.
//
// # Custom hosts
//
// A custom host is the stock harness plus its plugins, in a ten-line main:
//
//	func main() {
//		os.Exit(app.Main(os.Args[1:],
//			app.WithModules(auditlog.Module),
//			app.WithEntries(app.MustEntry("audit-log", map[string]any{"path": "audit.jsonl"}))))
//	}
//
// WithModules adds plugins by their fx modules, the one way a host includes a plugin (a
// composition names them); WithEntries appends entries to the embedded profiles; WithProfile adds
// or replaces a profile. Main owns the process (signals, GOGC=400 unless GOGC is set,
// a soft memory limit of 256 MiB unless GOMEMLIMIT is set);
// MainContext runs the same command line under a caller's context without touching process state.
package app
