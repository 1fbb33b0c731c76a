// Package mcpstdio is a hardened newline-delimited JSON-RPC transport for the MCP Go SDK: an
// mcp.Transport over a reader and a writer (a server's stdin and stdout) that frames and checks
// every line before the SDK sees it, so no input a client can send ends the connection.
//
//	t := &mcpstdio.Transport{In: os.Stdin, Out: os.Stdout}
//	session, err := server.Connect(ctx, t, nil)
//
// # Input
//
// One message per line (a trailing "\r" and a leading UTF-8 byte order mark are ignored; blank
// lines are skipped). A line that is not valid JSON is answered with a parse error (-32700) and id
// null; a line that is JSON but not a JSON-RPC message (not an object or a non-empty batch,
// "jsonrpc" other than "2.0", a method that is not a string, an id that is not a string or a number
// in valid UTF-8, nesting deeper than Options.MaxDepth) is answered with an invalid-request
// error (-32600), with the message's id when it can be read and null otherwise. A line longer than
// Options.MaxMessageBytes is answered with -32600 and skipped without being held in memory. Every
// rejected line leaves the connection serving. Invalid UTF-8 inside other strings is passed on: the
// tools runtime refuses such arguments with an error the model can act on.
//
// # Ids
//
// The SDK sees its own ids: each call is given a fresh integer id, and its response goes out with
// the id exactly as the client sent it (its JSON text, byte for byte: 2^53+1, 1e300 and 1.5 come
// back unchanged). A call whose id is the id of a call still in flight is answered with -32600 and
// not run. notifications/cancelled is translated to the call's internal id, and the cancelled call
// gets no response. Every other id the SDK sends that names a client request goes out as the client
// wrote it: the _meta subscription id of a subscriptions/listen stream (a notification naming a
// stream no longer open is not sent) and the progressToken of notifications/progress.
//
// # Back-pressure and end of input
//
// At most Options.MaxInFlight calls are in flight: at the limit no further input is read until one
// is answered, so a client that floods the server, or stops reading its output, holds the server
// to a bounded amount of work and memory. At the end of the input the calls in flight are finished
// and answered first, requests the server sent the client (elicitation) fail as unanswerable, open
// subscriptions/listen streams are ended (answered with their closing result), and only then does
// the SDK see the end of the connection.
//
// # Direct calls
//
// A host may answer calls itself (Transport.Direct, set before the connection starts): each call
// that is a single message is offered to the Direct first, and one it takes runs on the reading
// goroutine, as a call in flight like any other (slots, duplicate ids, cancellation, the end of
// input), its response written from the encoding it returns. A call still running after 1 to 2 ms
// hands the reading to a new goroutine, so its cancellation and the next calls are read meanwhile;
// a shorter one costs no goroutine, no timer and no thread woken for one (inline.go). The transport owns every call's
// wire life and hands each call to one side, the host's Direct or the SDK; neither calls back into
// the transport.
//
// # Batches
//
// JSON-RPC batches are accepted until a protocol version that removed them (2025-06-18 and later)
// is negotiated or named in a request's _meta; their responses are written as one array once every
// call in the batch is answered. An empty batch is an invalid request. A batch's calls take the
// same slots as lines; a batch of more than Options.MaxBatch messages is refused whole, and once
// the answers held for a batch reach Options.MaxBatchBytes its calls not yet started are answered
// with -32600 and not run.
//
// # The fast path
//
// A response written through the fast path is byte for byte the response the plain SDK (its own
// dispatch, encoding and stdio transport) writes for the same request (mcphost
// TestFastPathMatchesThePlainSDK: text with characters encoders escape differently, big reads,
// images, coded and uncoded errors, structured content). The parts:
//
//   - Result encodes a CallToolResult in one pass, as json.Marshal encodes it (jsonscan.AppendString for the text
//     blocks, HTML escaping on), where the SDK's MarshalJSON nests json.Marshal calls and
//     encoding/json re-validates each level; a result too large for the official clients is
//     bounded (MaxResult). The host hands it to the SDK from its receiving middleware, and returns
//     it from a direct call with Room around it, where the envelope is written in place.
//   - PlainCall recognises a tools/call that the host may run as a direct call: a served tool's
//     name, an arguments object and a _meta without the protocol's keys; anything else is left to
//     the SDK.
//
// # What each part buys
//
// mcphost BenchmarkServeRead2000 (one 2,000-line read per call over the stdio pipes; CPU per call,
// median of 10 runs alternating with the previous build on a loaded shared 2-core host, and bytes
// allocated per call): every part on ("fast") 915 µs, 442 KB; without direct calls ("no-direct":
// the SDK's dispatch, the one-pass encoder in its middleware) 1,533 µs, 628 KB; the plain SDK
// 2,401 µs, 682 KB (6 runs). Each part pays, so each is kept. Splicing (the host's middleware
// registering a result's encoding with the transport, which swapped it in for the token the SDK
// encoded) saved a call the SDK dispatches 1,533 → 1,098 µs and 628 → 508 KB; it was dropped because
// it made the host and the transport call each other both ways, and the calls it served on stdio are
// direct (what the SDK still dispatches: batches, calls under 2026-07-28, calls whose _meta has the
// protocol's keys). The stack pre-growth a tools/call used to get (growStack) showed no gain in the
// same benchmark (wall time per call 308 µs without it, 328 µs with it, median of 8 runs), so it was
// removed.
package mcpstdio
