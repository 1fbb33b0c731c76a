// bench.mjs compares `harness serve` with @modelcontextprotocol/server-filesystem (both over stdio, both
// driven by the same official TypeScript SDK client): N calls of reading a 2,000-line file and N calls of
// editing one line of it, sequentially, after a warm-up. It prints calls/s for each server and the ratio,
// then the start-up time of `harness serve` (spawn to `initialize` + `tools/list` answered).
//
// Usage: node e2e/bench.mjs [--calls 500] [--startups 20]
//        HARNESS=/path/to/harness node e2e/bench.mjs

import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connect, harnessBinary, tempDir } from "./lib.mjs";

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const CALLS = opt("calls", 500);
const STARTUPS = opt("startups", 20);
const WARMUP = 20;
const LINES = 2000;

function makeFile(dir) {
  const file = join(dir, "big.txt");
  const lines = [];
  for (let i = 1; i <= LINES; i++) lines.push(`line ${String(i).padStart(5, "0")} abcdefghij`);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

async function expectOk(p, label) {
  const r = await p;
  if (r.isError) throw new Error(`${label} failed: ${JSON.stringify(r.content)}`);
  return r;
}

/** measure runs fn(i) for WARMUP + n iterations and returns calls per second over the last n. */
async function measure(n, fn) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(WARMUP + i);
  return n / ((performance.now() - t0) / 1000);
}

// The edited line toggles between two spellings so every call changes exactly one line.
const spell = (i) => (i % 2 === 0 ? "line 01000 abcdefghij" : "line 01000 ABCDEFGHIJ");

async function benchCordon(bin) {
  const dir = tempDir("cordon-bench-");
  const file = makeFile(dir);
  const { client } = await connect(bin, ["serve", "--cwd", dir, "--log-level", "error"]);
  try {
    const read = await measure(CALLS, () => expectOk(client.callTool({ name: "read", arguments: { file_path: file } }), "read"));
    const edit = await measure(CALLS, (i) =>
      expectOk(client.callTool({ name: "edit", arguments: { file_path: file, old_string: spell(i), new_string: spell(i + 1) } }), "edit"));
    return { read, edit };
  } finally {
    await client.close();
  }
}

async function benchPeer() {
  const dir = tempDir("cordon-peer-");
  const file = makeFile(dir);
  const entry = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
  const { client } = await connect(process.execPath, [entry, dir]);
  try {
    const read = await measure(CALLS, () => expectOk(client.callTool({ name: "read_text_file", arguments: { path: file } }), "read_text_file"));
    const edit = await measure(CALLS, (i) =>
      expectOk(client.callTool({ name: "edit_file", arguments: { path: file, edits: [{ oldText: spell(i), newText: spell(i + 1) }] } }), "edit_file"));
    return { read, edit };
  } finally {
    await client.close();
  }
}

async function startup(bin) {
  const dir = tempDir("cordon-start-");
  const times = [];
  for (let i = 0; i < STARTUPS; i++) {
    const t0 = performance.now();
    const { client } = await connect(bin, ["serve", "--cwd", dir, "--log-level", "error"]);
    await client.listTools();
    times.push(performance.now() - t0);
    await client.close();
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
}

const bin = harnessBinary();
const cordon = await benchCordon(bin);
const peer = await benchPeer();
const f = (x) => x.toFixed(0).padStart(7);
console.log(`calls: ${CALLS} sequential per operation (after ${WARMUP} warm-up), file: ${LINES} lines`);
console.log(`operation   cordon calls/s   server-filesystem calls/s   ratio`);
console.log(`read        ${f(cordon.read)}          ${f(peer.read)}                     ${(cordon.read / peer.read).toFixed(2)}x`);
console.log(`edit        ${f(cordon.edit)}          ${f(peer.edit)}                     ${(cordon.edit / peer.edit).toFixed(2)}x`);
const s = await startup(bin);
console.log(`harness serve start -> initialize + tools/list answered (node client, ${STARTUPS} runs): ` +
  `median ${s.median.toFixed(1)} ms, min ${s.min.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
