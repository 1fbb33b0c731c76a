// Package fastpath is the stdio fast path of the MCP host: the parts that answer a tools/call on
// stdio with fewer passes over its result than the Go SDK makes, each with the SDK's bytes.
//
// # Contract
//
// A response written through the fast path is byte for byte the response the plain SDK (its own
// dispatch, encoding and stdio transport) writes for the same request (mcphost
// TestFastPathMatchesThePlainSDK: text with characters encoders escape differently, big reads,
// images, coded and uncoded errors, structured content). The parts:
//
//   - Result encodes a CallToolResult in one pass, as json.Marshal encodes it (jsonstr for the text
//     blocks, HTML escaping on), where the SDK's MarshalJSON nests json.Marshal calls and
//     encoding/json re-validates each level; a result too large for the official clients is
//     bounded (MaxResult).
//   - Splices lets a transport write a registered encoding in place of the short token the SDK
//     encodes instead (mcpstdio.Transport.Splice), so the SDK's validating re-encodings of the
//     response scan the token, not the result.
//   - PlainCall recognises a tools/call that the host may run outside the SDK's dispatch
//     (mcpstdio.Transport.SetDirect): a served tool's name, an arguments object and a _meta without
//     the protocol's keys; anything else is left to the SDK.
//
// # What each part buys
//
// mcphost BenchmarkServeRead2000 (one 2,000-line read per call over the stdio pipes, on a shared
// 2-core host; CPU per call, median of 5 runs of 300 calls, and bytes allocated per call): every
// part on ("fast") 481 µs, 456 KB; without direct calls 694 µs, 522 KB; without splicing either
// 881 µs, 644 KB; the plain SDK 1,141 µs, 699 KB. Each part pays, so each is kept. The stack
// pre-growth a tools/call used to get (growStack) showed no gain in the same benchmark (wall time
// per call 308 µs without it, 328 µs with it, median of 8 runs), so it was removed.
package fastpath
