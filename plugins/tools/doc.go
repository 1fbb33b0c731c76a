// Package tools is the ctx.tools seam and its runtime (plugin "tools"): the
// tool registry, the execution pipeline every tool call runs through, the
// argument checks against each tool's JSON schema, and two optional seams
// other plugins probe, Approval ("approval") and Models ("modelCatalog").
//
// # Registering
//
// A tool is typed: Tool[In, Out] names its argument type In (decoded from the
// call's JSON, after the JSON was checked against Parameters, with exact key
// matching) and its value type Out (the output schema hosts list is derived
// from it). A consumer plugin injects Service and registers the tool's
// Definition with its own kernel context, so each registration is an effect of
// the registering plugin:
//
//	rt := tools.Service.Must(kc)
//	_, err := rt.Register(kc, tools.Tool[readArgs, ReadValue]{Name: "read", ...}.Definition())
//
// Disposing that plugin removes its tools (and their guidance sections).
// Duplicate and empty names are refused. Schemas()
// lists what the model sees in registration order; GuidanceSections() and
// Guidance() render the guidance of the registered tools only.
//
// # Executing
//
// Hosts call Runtime.Execute(ctx, Call). It never panics and never returns a
// Go error; every outcome is a Result:
//
//  1. the arguments are snapshotted as compact lossless JSON (failure: the
//     plain error `tool execution arguments must be losslessly
//     JSON-serializable`; a string or object key that is not valid UTF-8
//     text, invalid bytes or an escaped surrogate without its pair, which a
//     decoder would silently turn into U+FFFD, is the plain error `tool
//     execution arguments must be valid UTF-8 text: "<path>" holds invalid
//     UTF-8 bytes` or `... holds the unpaired surrogate \ud800`, "a key of
//     "<path>"" for a key);
//  2. a cancelled ctx yields `tool call aborted before dispatch`
//     {AbortError, ABORTED_BEFORE_DISPATCH} and nothing else runs;
//  3. PreExecute (waterfall, default allow) decides allow, deny or ask; ask
//     goes to the Approval service, degrading to deny without one (`tool "<n>"
//     requires approval (not yet supported)` or the ask's reason) or without a
//     session (`... but the call has no agent to route it through`); then the
//     monotonic guards (Runtime.Guard) may deny;
//  4. ExecuteStep (waterfall) wraps the body step (and, for a tool not
//     annotated ReadOnly, ChangeStep wraps it inside ExecuteStep), which resolves the tool
//     (`unknown tool "<n>"`, {ToolNotFoundError, UNKNOWN_TOOL}), checks the
//     arguments (`invalid arguments: <v1>; <v2>`, {ToolArgsError,
//     INVALID_ARGS}), decodes them into In, runs Tool.Execute (a panic becomes
//     an error result), then renders the value and projects the presentation
//     meta of a top-level call unless the call set SkipMeta (failures of the
//     projections, or a value that is not the tool's Out after a policy
//     replaced it: {ToolOutputError, INVALID_TOOL_OUTPUT});
//  5. PostExecute (waterfall, default accept) may replace content or value, or
//     block;
//  6. ResultEvent (emit, contained) reports the final result.
//
// The zero Decision allows and the zero PostDecision accepts; a Deny without
// a reason is reported as `tool "<n>" was denied by policy`. Unknown decision kinds fail the call.
//
// Cancellation noticed after the body started turns a successful result into
// `tool call aborted` {AbortError, ABORTED}; failures keep their own error.
//
// # The failure envelope
//
// A failure is IsError with exactly one text block "Error: <message>" and
// Error{Message, Name, Code}; Name and Code are set only when errors.As finds a
// Coded error (Code() string) in the chain, Name from Named (default
// "HarnessError"). Plain errors carry no code. Error is this package's coded
// error class.
//
// # Argument checks
//
// The snapshot, the schema subset and the checks are the library
// internal/argcheck's; this package reports its verdicts. The supported schema
// subset (docs/tools.md): one scalar type or oneOf,
// object properties / required / boolean additionalProperties (the parameter
// root is open unless it says otherwise: unknown keys are accepted and
// ignored), array items, scalar enum / const, and the annotations description,
// title, default, examples. Violations, in walk order: `missing required
// property "<p>"`, `"<p>" must be a string|a number|a finite JSON number|an
// integer|a boolean|null|an object|an array`, `"<p>" must be one of <JSON
// array>`, `"<p>" must be <JSON>` (const), `"<p>" must match exactly one oneOf
// branch (matched <n>)`, `"<p>" is not a declared property
// (additionalProperties: false)`; the root is named "arguments". DecodeArgs
// decodes validated arguments with exact (case-sensitive) key matching.
//
// # Values
//
// A value is the Go value the tool returned, of its Out type; nothing checks it
// against a schema, because its type is its schema. Hosts encode it with
// encoding/json where they send it (run's "value", MCP structuredContent).
//
// # Sessions
//
// A Session is an agent session's identity plus a locked Header{Cwd, Model}.
// Exec.SessionKey returns it (or an untyped nil) for policies that key state by
// owner; Runtime.EndSession emits SessionEnded so they drop it. ModelFor picks
// the model a call runs against (the session's, else the Models catalog's
// default; none without a session).
//
// # Plugin
//
// Plugin ("tools", no configuration keys) provides Service; Module contributes
// it to an fx host.
package tools
