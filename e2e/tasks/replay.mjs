// replay.mjs re-plays the tool calls of the model-run transcripts (docs/model-run.md) against a
// harness binary and reports the failed calls (isError), so the figures can be counted again.
//
// Each transcript runs in a fresh copy of its module (the header's "module", taken from the module
// cache with `go mod download`), under `harness run --cwd <copy>`, one call at a time, in order.
// "$WS" in a call's arguments stands for the copy. The "note" lines (builds and tests run outside the
// tools) are not re-played: none of them changed a file.
//
// Usage: node e2e/tasks/replay.mjs HARNESS TRANSCRIPT.jsonl... [-v]
//   -v  print the whole text of each failed call
// It prints, per transcript, the calls, the failed ones with their code and first line, and every call
// whose isError or code differs from the recording; it exits 1 when one does.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const args = process.argv.slice(2);
const verbose = args.includes("-v");
const [harness, ...files] = args.filter((a) => a !== "-v");
if (!harness || files.length === 0) {
  console.error("usage: node e2e/tasks/replay.mjs HARNESS TRANSCRIPT.jsonl... [-v]");
  process.exit(2);
}

// writable makes every file and folder of the copy writable by its owner (the module cache's are not).
function writable(p) {
  const st = statSync(p);
  chmodSync(p, st.mode | 0o200);
  if (st.isDirectory()) for (const e of readdirSync(p)) writable(join(p, e));
}

function moduleDir(mod) {
  const r = spawnSync("go", ["mod", "download", "-json", mod], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`go mod download ${mod}: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout).Dir;
}

// withWS replaces "$WS" in every string of v by ws.
function withWS(v, ws) {
  if (typeof v === "string") return v.replaceAll("$WS", ws);
  if (Array.isArray(v)) return v.map((x) => withWS(x, ws));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withWS(x, ws)]));
  return v;
}

async function replay(file) {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const header = lines.find((l) => l.task);
  const tmp = mkdtempSync(join(tmpdir(), "cordon-replay-"));
  try {
    return await replayIn(file, tmp, header, lines.filter((l) => l.call));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function replayIn(file, tmp, header, steps) {
  const ws = join(tmp, "ws");
  cpSync(moduleDir(header.module), ws, { recursive: true });
  writable(ws);
  const env = { ...process.env, CORDON_HOME: join(tmp, "home"), XDG_STATE_HOME: join(tmp, "state") };
  const child = spawn(harness, ["run", "--cwd", ws], { env, stdio: ["pipe", "pipe", "ignore"] });
  child.stdin.on("error", () => {}); // a harness that ended is reported below
  // Answers in order; once stdout closes (the harness ended, or never started), every call still
  // waiting gets null.
  const waiting = [];
  const ready = [];
  let ended = false;
  const end = () => {
    ended = true;
    while (waiting.length) waiting.shift()(null);
  };
  const rl = createInterface({ input: child.stdout });
  rl.on("line", (l) => (waiting.length ? waiting.shift()(l) : ready.push(l)));
  rl.on("close", end);
  child.on("error", end);
  const next = () => {
    if (ready.length) return Promise.resolve(ready.shift());
    return ended ? Promise.resolve(null) : new Promise((r) => waiting.push(r));
  };
  const closed = new Promise((r) => child.on("close", r));

  const failed = [];
  const differ = [];
  let recordedFailed = 0;
  for (const { call, answer: was } of steps) {
    child.stdin.write(JSON.stringify(withWS(call, ws)) + "\n");
    const line = await next();
    if (line === null) {
      child.kill();
      throw new Error(`${file}: ${harness} run ended before answering call ${call.id}`);
    }
    const now = JSON.parse(line.replaceAll(ws, "$WS"));
    if (was.isError) recordedFailed++;
    if (now.isError) failed.push({ call, now });
    if (now.isError !== was.isError || now.code !== was.code) differ.push({ call, now, was });
  }
  child.stdin.end();
  await closed;

  console.log(`${file}: ${header.task} on ${header.build} (${header.commit}): ${steps.length} calls, ` +
    `${failed.length} failed (recorded: ${recordedFailed})`);
  for (const { call, now } of failed) {
    console.log(`  #${call.id} ${call.tool} ${now.code}: ${verbose ? "\n" + now.text : now.text.split("\n")[0]}`);
  }
  for (const { call, now, was } of differ) {
    console.log(`  DIFFERS #${call.id} ${call.tool}: isError ${now.isError} code ${now.code}; ` +
      `recorded isError ${was.isError} code ${was.code}`);
  }
  return differ.length === 0;
}

let same = true;
for (const f of files) same = (await replay(f)) && same;
process.exit(same ? 0 : 1);
