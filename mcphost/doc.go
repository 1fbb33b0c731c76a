// Package mcphost is Cordon's MCP host: it serves the tools runtime of a composed kernel
// (tools.Service) over MCP with the official Go SDK, on stdio (ServeStdio, or any mcp.Transport with
// Serve) and over Streamable HTTP (Host.HTTP), one Host serving all of them at once, with input
// rounds and elicitation for approvals (Approver, provided by New when the composition has no
// approval service), per-session tool exposure and the server instructions. An embedder composes
// its own kernel and calls New (see Example); the zero values of Config, StdioOptions and
// HTTPOptions are the defaults. `harness serve` is this package behind a command line.
//
// One connection is one tools.Session, opened on the first call and ended (Runtime.EndSession) when
// the connection closes; with Config.Cwd the session header's cwd is set to it, otherwise the
// provider's default applies, and with Config.Model its model. tools/list sends each visible tool's
// parameter schema byte for byte (and its output schema), with annotations readOnlyHint /
// destructiveHint (the SDK lists tools sorted by name), and follows the runtime's tools/change events
// (a tool that goes away leaves the list, with notifications/tools/list_changed); the guidance of the
// visible tools, then the standing-policy statements plugins contribute (tools.Instructions: a
// composed sandbox-policy's and user-approval's), is the server instructions. tools/call returns
// the content blocks (text, image), isError, and _meta.error = {name, code} on a failure that carries
// a code. With Config.Structured the tools also list their output schemas and a success carries
// structuredContent = the canonical value; without it (the default) neither is sent, because
// structuredContent-first clients (Claude Code, Codex, opencode) would show the model that JSON
// instead of the content blocks. Approval prompts go to the client
// through elicitation when it declares the capability; otherwise they are unavailable (a decline is a
// rejection, a cancel or an unknown action a cancellation, an answer off the form's schema
// unavailable). Calls on one connection run concurrently; ending Serve's context cancels the calls
// in flight, an approval prompt included, and a client that disconnects ends its session.
//
// Protocol versions 2024-11-05 to 2025-11-25 (initialize handshake; approvals are elicitation
// requests sent during the call) and 2026-07-28 (server/discover; one stdio process is one session;
// an approval is an input request: the call answers with CallToolResult.InputRequests and a signed
// RequestState, and runs again when the client retries with the answer; a state answers one
// question of that exact call once, within ten minutes). stdin and stdout are framed and checked by
// mcphost/internal/mcpstdio, which owns each call's wire life (id, slot, cancellation, batch). A
// plain tools/call on stdio (a served tool's name, arguments, a _meta without the protocol's keys, on
// an initialized connection before 2026-07-28) is handed by the transport to the host's handler
// (directCalls) instead of the SDK's dispatch; any other call is the SDK's, its result encoded once
// by receiving middleware (wireResults). Either way the bytes on the wire are the plain SDK's
// (mcphost/internal/mcpstdio "The fast path" has the contract and the figures).
package mcphost
