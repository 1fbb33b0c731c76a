// Package tools is the ctx.tools seam and its runtime (plugin "tools"): the
// tool registry, the execution pipeline every tool call runs through, the
// argument checks against each tool's JSON schema, and two optional seams
// other plugins probe, Approval ("approval") and Models ("modelCatalog").
//
// # Registering
//
// A consumer plugin injects Service and registers Definitions with its own
// kernel context, so each registration is an effect of the registering plugin:
//
//	rt := tools.Service.Must(kc)
//	_, err := rt.Register(kc, tools.Definition{Name: "read", ...})
//
// Disposing that plugin removes its tools (and their guidance sections).
// Duplicate names and the reserved name "run_code" are refused. Schemas()
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
//  4. ExecuteStep (waterfall) wraps the body step, which resolves the tool
//     (`unknown tool "<n>"`, {ToolNotFoundError, UNKNOWN_TOOL}), checks the
//     arguments (`invalid arguments: <v1>; <v2>`, {ToolArgsError,
//     INVALID_ARGS}), runs Definition.Execute (a panic becomes an error
//     result), then validates the value against OutputSchema, renders it and
//     projects the presentation meta of a top-level call unless the call set
//     SkipMeta (failures: {ToolOutputError, INVALID_TOOL_OUTPUT});
//  5. PostExecute (waterfall, default accept) may replace content or value, or
//     block;
//  6. ResultEvent (emit, contained) reports the final result.
//
// The zero Decision allows and the zero PostDecision accepts; a Deny without
// a reason is reported as `tool "<n>" was denied by policy` (the reference
// would let it through). Unknown decision kinds fail the call.
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
// The supported schema subset is the reference's: one scalar type or oneOf,
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
// # Output values
//
// A value is checked as the JSON encoding/json makes of it, read back by the
// runtime's parser (non-finite numbers and negative zero are not lossless).
// Values built of plain Go shapes (structs without embedded fields whose json
// tags use only a name, "-" or omitempty; string-keyed maps; slices other than
// []byte; arrays; pointers; interfaces; strings, bools and numbers) are walked
// directly, without encoding them, so a large string costs a UTF-8 check, not
// an encode and a parse; a value with a marshaler, []byte, other tag options
// or non-string map keys anywhere in it is encoded and parsed as a whole. Both
// routes give the same JSON, the same violations and the same errors.
// Before either route, a reflect walk of the Go value against the compiled
// output schema (fastConforms) tries to prove the value valid without building
// anything; it answers only "valid" or "not proven" (anything unusual: invalid
// UTF-8, a oneOf it cannot decide, a value the direct walk does not model), and
// "not proven" takes the exact route above for the verdict and its messages.
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
// Plugin ("tools", config {mode: native, maxParallelSubCalls: 10}) provides
// Service; Module contributes it to an fx host and init registers it in
// kernel.DefaultCatalog. Modes "code" and "both" fail to load: this build has
// no code runtime.
package tools
