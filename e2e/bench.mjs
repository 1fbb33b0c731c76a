// bench.mjs compares `harness serve` with @modelcontextprotocol/server-filesystem and with Claude Code's
// own Read and Edit tools (`claude mcp serve`, the pinned client of e2e/clients; skipped when it is not
// installed) (all over stdio, all driven by the same official TypeScript SDK client): N calls of reading
// a 2,000-line file and N calls of editing one line of it, sequentially, after a warm-up. It prints calls/s for each server and the ratio,
// then the client-side ceilings (a no-work server replaying each server's recorded responses,
// e2e/replay.mjs) and the start-up time of `harness serve` (spawn to `initialize` + `tools/list` answered).
//
// Usage: node e2e/bench.mjs [--calls 500] [--startups 20] [--pause 0]
//        (--pause MS: a pause before each measured call, as between an agent's calls; the server
//        CPU per call then counts what the server does while idle, and calls/s the pauses)
//        HARNESS=/path/to/harness node e2e/bench.mjs
//        CLAUDE=/path/to/claude node e2e/bench.mjs   (default: the pinned client under
//        ~/.cache/cordon-e2e-clients/*/node_modules; CLAUDE=none leaves it out)
//        FLOOR=none leaves out the floor (scripts/floor, built with go)

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { join } from "node:path";
import { homedir, loadavg as osLoadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { connect, harnessBinary, stateEnv, tempDir } from "./lib.mjs";

const require = createRequire(import.meta.url);
const loadavg = () => osLoadavg().map((x) => x.toFixed(2)).join(" ");
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const CALLS = opt("calls", 500);
const STARTUPS = opt("startups", 20);
const PAUSE = opt("pause", 0);
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

/** cpuMs returns the CPU time (user + system) a process has used, in ms, or NaN off Linux. */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/**
 * measure runs fn(i) for WARMUP + n iterations and returns, over the last n: calls per second, the
 * server's CPU time per call (a figure that a busy machine distorts less than wall time) and this
 * client's CPU time per call (all its threads: parsing and validating the responses).
 */
async function measure(pid, n, fn) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const c0 = cpuMs(pid);
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (PAUSE > 0) await new Promise((r) => setTimeout(r, PAUSE));
    await fn(WARMUP + i);
  }
  const u = process.cpuUsage(u0);
  return { rate: n / ((performance.now() - t0) / 1000), cpu: (cpuMs(pid) - c0) / n, client: (u.user + u.system) / 1000 / n };
}

// The edited line toggles between two spellings so every call changes exactly one line.
const spell = (i) => (i % 2 === 0 ? "line 01000 abcdefghij" : "line 01000 ABCDEFGHIJ");

async function benchCordon(bin) {
  const dir = tempDir("cordon-bench-");
  const file = makeFile(dir);
  const { client, transport } = await connect(bin, ["serve", "--cwd", dir, "--log-level", "error"], { env: stateEnv() });
  try {
    const read = await measure(transport.pid, CALLS, () => expectOk(client.callTool({ name: "read", arguments: { file_path: file } }), "read"));
    const edit = await measure(transport.pid, CALLS, (i) =>
      expectOk(client.callTool({ name: "edit", arguments: { file_path: file, old_string: spell(i), new_string: spell(i + 1) } }), "edit"));
    // Record one response of each for the replay ceiling (the file now holds spell(WARMUP + CALLS)).
    const n = WARMUP + CALLS;
    const recorded = {
      tools: (await client.listTools()).tools,
      results: {
        read: await expectOk(client.callTool({ name: "read", arguments: { file_path: file } }), "read"),
        edit: await expectOk(client.callTool({ name: "edit", arguments: { file_path: file, old_string: spell(n), new_string: spell(n + 1) } }), "edit"),
      },
    };
    const recording = join(dir, "recorded.json");
    writeFileSync(recording, JSON.stringify(recorded));
    return { read, edit, recording };
  } finally {
    await client.close();
  }
}

// benchReplay drives e2e/replay.mjs, which answers with a server's recorded responses and does no
// work; the calls use the recorded tool names so the client validates them as it did live.
async function benchReplay(recording, names) {
  const replay = fileURLToPath(new URL("./replay.mjs", import.meta.url));
  return benchRecorded(process.execPath, [replay, recording], names, "x");
}

// benchFloor drives scripts/floor, a Go stdio server that answers with Cordon's recorded responses
// and does only the calls' I/O (the read of the file; for an edit, a durable replace): the server
// CPU per call any Go server pays for that I/O and those responses over this client's pipe.
async function benchFloor(recording) {
  const bin = join(tempDir("cordon-floor-"), "floor");
  execFileSync("go", ["build", "-o", bin, "./scripts/floor"], { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: "inherit" });
  return benchRecorded(bin, [recording], { read: "read", edit: "edit" }, makeFile(tempDir("cordon-floor-")));
}

// benchRecorded measures the reads and edits of file through a server that answers with recorded
// responses (names: the recorded tool names).
async function benchRecorded(command, args, names, file) {
  const { client, transport } = await connect(command, args);
  try {
    await client.listTools(); // as live: the client caches the output schemas
    const read = await measure(transport.pid, CALLS, () => expectOk(client.callTool({ name: names.read, arguments: { file_path: file } }), names.read));
    const edit = await measure(transport.pid, CALLS, (i) =>
      expectOk(client.callTool({ name: names.edit, arguments: { file_path: file, old_string: spell(i), new_string: spell(i + 1) } }), names.edit));
    return { read, edit };
  } finally {
    await client.close();
  }
}

async function benchPeer() {
  const dir = tempDir("cordon-peer-");
  const file = makeFile(dir);
  const entry = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
  const { client, transport } = await connect(process.execPath, [entry, dir]);
  try {
    const read = await measure(transport.pid, CALLS, () => expectOk(client.callTool({ name: "read_text_file", arguments: { path: file } }), "read_text_file"));
    const edit = await measure(transport.pid, CALLS, (i) =>
      expectOk(client.callTool({ name: "edit_file", arguments: { path: file, edits: [{ oldText: spell(i), newText: spell(i + 1) }] } }), "edit_file"));
    const n = WARMUP + CALLS;
    const recorded = {
      tools: (await client.listTools()).tools,
      results: {
        read_text_file: await expectOk(client.callTool({ name: "read_text_file", arguments: { path: file } }), "read_text_file"),
        edit_file: await expectOk(client.callTool({ name: "edit_file", arguments: { path: file, edits: [{ oldText: spell(n), newText: spell(n + 1) }] } }), "edit_file"),
      },
    };
    const recording = join(dir, "recorded.json");
    writeFileSync(recording, JSON.stringify(recorded));
    return { read, edit, recording };
  } finally {
    await client.close();
  }
}

/** claudeBinary is the pinned Claude Code client's executable, or "" when it is not installed. */
function claudeBinary() {
  if (process.env.CLAUDE) return process.env.CLAUDE === "none" ? "" : process.env.CLAUDE;
  const cache = join(homedir(), ".cache", "cordon-e2e-clients");
  for (const d of existsSync(cache) ? readdirSync(cache) : []) {
    const bin = join(cache, d, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude");
    if (existsSync(bin)) return bin;
  }
  return "";
}

// benchClaude drives Claude Code's own Read and Edit (`claude mcp serve`) on the same file, its home
// a fresh directory and its traffic off; Edit follows Read in one session, as Claude Code requires.
async function benchClaude(bin) {
  const dir = tempDir("cordon-claude-");
  const file = makeFile(dir);
  const env = { HOME: tempDir("cordon-claude-home-"), PATH: process.env.PATH, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", DISABLE_ERROR_REPORTING: "1" };
  const { client, transport } = await connect(bin, ["mcp", "serve"], { cwd: dir, env });
  try {
    const read = await measure(transport.pid, CALLS, () => expectOk(client.callTool({ name: "Read", arguments: { file_path: file } }), "Read"));
    const edit = await measure(transport.pid, CALLS, (i) =>
      expectOk(client.callTool({ name: "Edit", arguments: { file_path: file, old_string: spell(i), new_string: spell(i + 1) } }), "Edit"));
    return { read, edit };
  } finally {
    await client.close();
  }
}

async function startup(bin) {
  const dir = tempDir("cordon-start-");
  const times = [];
  const cpus = [];
  for (let i = 0; i < STARTUPS; i++) {
    const t0 = performance.now();
    const { client, transport } = await connect(bin, ["serve", "--cwd", dir, "--log-level", "error"], { env: stateEnv() });
    await client.listTools();
    times.push(performance.now() - t0);
    cpus.push(cpuMs(transport.pid));
    await client.close();
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { median: median(times), min: times[0], max: times[times.length - 1], cpu: median(cpus) };
}

/**
 * startupWire measures the same start-up without the SDK client: it spawns `harness serve`, writes
 * initialize, waits for the answer line, writes notifications/initialized and tools/list, and stops
 * the clock when the tools/list answer line arrives. The SDK client's own work (it compiles a
 * validator for every output schema when tools/list returns) is then not counted.
 */
async function startupWire(bin) {
  const dir = tempDir("cordon-start-");
  const times = [];
  for (let i = 0; i < STARTUPS; i++) {
    const t0 = performance.now();
    const child = spawn(bin, ["serve", "--cwd", dir, "--log-level", "error"], { stdio: ["pipe", "pipe", "ignore"], env: stateEnv() });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } }) + "\n");
    await lines.next();
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) + "\n");
    const { value } = await lines.next();
    times.push(performance.now() - t0);
    if (!value?.includes('"tools"')) throw new Error(`tools/list answer: ${value}`);
    child.stdin.end();
    await new Promise((res) => child.on("exit", res));
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
}

const bin = harnessBinary();
const cordon = await benchCordon(bin);
const peer = await benchPeer();
const ceiling = await benchReplay(cordon.recording, { read: "read", edit: "edit" });
const peerCeiling = await benchReplay(peer.recording, { read: "read_text_file", edit: "edit_file" });
const floor = process.env.FLOOR === "none" ? null : await benchFloor(cordon.recording);
const claudeBin = claudeBinary();
const claude = claudeBin ? await benchClaude(claudeBin) : null;
const f = (x, d = 0) => x.toFixed(d).padStart(8);
console.log(`calls: ${CALLS} sequential per operation (after ${WARMUP} warm-up), file: ${LINES} lines, load average: ${loadavg()}`);
console.log(`operation   cordon calls/s  server-filesystem calls/s   ratio   server CPU ms/call: cordon  peer   client CPU ms/call: cordon  peer`);
for (const op of ["read", "edit"]) {
  console.log(`${op.padEnd(10)} ${f(cordon[op].rate)}        ${f(peer[op].rate)}              ${(cordon[op].rate / peer[op].rate).toFixed(2).padStart(6)}x` +
    `                   ${f(cordon[op].cpu, 2)} ${f(peer[op].cpu, 2)}                ${f(cordon[op].client, 2)} ${f(peer[op].client, 2)}`);
}
// The ceilings: e2e/replay.mjs does no work, so its rate is bounded by the client alone.
const ceilingLine = (who, c) => `client ceiling, a no-work server replaying ${who} exact responses (e2e/replay.mjs): ` +
  ["read", "edit"].map((op) => `${op} ${c[op].rate.toFixed(0)} calls/s (${(c[op].rate / peer[op].rate).toFixed(2)}x the peer; client CPU ${c[op].client.toFixed(2)} ms/call)`).join(", ");
console.log(ceilingLine("Cordon's", ceiling));
console.log(ceilingLine("server-filesystem's", peerCeiling));
// The table: server CPU per call, the three servers through the same client.
const cpu = (r, op) => (r ? r[op].cpu.toFixed(2) : "-").padStart(8);
console.log(`server CPU ms/call      cordon  server-filesystem  claude mcp serve${claude ? "" : " (not installed)"}`);
for (const op of ["read", "edit"]) {
  console.log(`${op.padEnd(18)} ${cpu(cordon, op)}           ${cpu(peer, op)}          ${cpu(claude, op)}` +
    (claude ? `   calls/s: ${cordon[op].rate.toFixed(0)} ${peer[op].rate.toFixed(0)} ${claude[op].rate.toFixed(0)}` : ""));
}
if (floor) {
  console.log(`floor, a Go server doing only the I/O and answering Cordon's recorded responses (scripts/floor): server CPU ` +
    ["read", "edit"].map((op) => `${op} ${floor[op].cpu.toFixed(2)} ms/call (Cordon ${(cordon[op].cpu / floor[op].cpu).toFixed(2)}x it, ` +
      `the floor ${(floor[op].cpu / peer[op].cpu).toFixed(2)}x server-filesystem)`).join(", "));
}
const s = await startup(bin);
console.log(`harness serve start -> initialize + tools/list answered (node client, ${STARTUPS} runs): ` +
  `median ${s.median.toFixed(1)} ms, min ${s.min.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; server CPU median ${s.cpu.toFixed(0)} ms`);
const w = await startupWire(bin);
console.log(`harness serve start -> tools/list answer line read (raw JSON-RPC over the pipe from node, no SDK client, ${STARTUPS} runs): ` +
  `median ${w.median.toFixed(1)} ms, min ${w.min.toFixed(1)} ms, max ${w.max.toFixed(1)} ms`);
