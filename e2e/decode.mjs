// decode.mjs times, in this Node, what the TypeScript SDK client does to every stdio response line
// before a tool result reaches the caller: Buffer -> string (ReadBuffer), JSON.parse, and the SDK's
// JSON-RPC schema check. It shows where a large response's client cost goes, including the cost of
// turning a buffer of 128 KiB or more into a string.
//
// Usage: node e2e/decode.mjs recorded.json   (a recording written by e2e/bench.mjs)
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const time = (f, n = 1000) => {
  for (let i = 0; i < n / 5; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  return ((performance.now() - t0) / n).toFixed(3);
};

console.log(`node ${process.version}`);
const recorded = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const [name, result] of Object.entries(recorded.results)) {
  const line = JSON.stringify({ jsonrpc: "2.0", id: 1, result });
  const buf = Buffer.from(line);
  const msg = JSON.parse(line);
  console.log(`${name}: ${buf.length} bytes; toString ${time(() => buf.toString("utf8"))} ms, ` +
    `JSON.parse ${time(() => JSON.parse(line))} ms, JSONRPCMessageSchema.parse ${time(() => JSONRPCMessageSchema.parse(msg))} ms`);
}
for (const kib of [64, 120, 127, 128, 160, 256]) {
  const buf = Buffer.alloc(kib * 1024, "a");
  console.log(`toString of ${kib} KiB of ASCII: ${time(() => buf.toString("utf8"))} ms`);
}
