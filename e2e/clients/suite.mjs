// suite.mjs is the real-client end-to-end suite (docs/clients.md): each pinned coding agent is driven
// by the scripted mock model through every tool and error class, with `harness serve` as its MCP
// server over stdio and over HTTP, and what the client hands its model for each result is compared
// with what `harness run` gives for the same call on the same workspace. Then, per client, the
// largest result it passes whole is found by bisection (probe.mjs).
//
// The server runs the suite's own composition: the default profile with lsp-diagnostics given a fake
// language server (diagnostics.mjs), so the scenario's diagnostics blocks come at once and the same
// every time.
//
// Usage (run.sh sets these up):
//   HARNESS=bin FAKELS=fakels CLIENTS_NM=node_modules node suite.mjs [client[:transport] ...] [--no-probe]
// Writes the table to $CLIENTS_OUT/table.md (default: a temp dir, printed at the end).

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLIENTS } from "./clients.mjs";
import { diagnosticsComposition } from "./diagnostics.mjs";
import { probe } from "./probe.mjs";
import { images } from "./results.mjs";
import { runClient, tempRoot } from "./run.mjs";
import { expectation, layout, reference, STEPS } from "./scenario.mjs";
import { stepScript } from "./script.mjs";

const CONNECT_MS = 2000;
const CONNECT_RETRIES = 2;
const RUN_TIMEOUT_MS = 120000;
const BAD_LOG = /unknown message ID|connection dropped/i;

const bin = process.env.HARNESS;
const nm = process.env.CLIENTS_NM;
const fakels = process.env.FAKELS;
if (!bin || !nm || !fakels) {
  console.error("suite.mjs: set HARNESS (the harness binary), FAKELS (the fake language server, internal/lsp/testdata/fakels) and CLIENTS_NM (the installed clients' node_modules)");
  process.exit(2);
}
const nodeBin = dirname(process.execPath);
const outDir = process.env.CLIENTS_OUT || tempRoot("cordon-clients-out-");
mkdirSync(outDir, { recursive: true });

const args = process.argv.slice(2);
const doProbe = !args.includes("--no-probe");
const picks = args.filter((a) => !a.startsWith("--"));
const runs = []; // by transport, then client, so that no two runs of one client overlap
for (const transport of ["stdio", "http"]) {
  for (const name of Object.keys(CLIENTS)) {
    if (picks.length === 0 || picks.includes(name) || picks.includes(`${name}:${transport}`)) runs.push({ name, transport });
  }
}

const failures = [];
let passes = 0;
const check = (label, ok, detail = "") => {
  if (ok) passes++;
  else failures.push(`${label}${detail ? `: ${detail}` : ""}`);
  return ok;
};

/** scenario runs the steps through one client over one transport and checks what the model got. */
async function scenario({ name, transport }) {
  const root = tempRoot(`cordon-${name}-${transport}-`);
  const ws = join(root, "ws");
  const label = `${name} ${transport}`;
  const composed = compose(root);
  check(`${label}: the suite's composition is the default profile with lsp-diagnostics given the fake server`, composed.same, composed.detail);
  const ref = await reference(bin, ws, { PATH: process.env.PATH, XDG_STATE_HOME: join(root, "state-ref") }, composed.args);
  const { script, record, names } = stepScript(CLIENTS[name].wire, STEPS, ws);
  // The same client without MCP starts at the same moment, so both start under the same load.
  const [run, base] = await Promise.all([
    runClient({ name, transport, bin, nm, nodeBin, root, script, timeoutMs: RUN_TIMEOUT_MS, serveArgs: composed.args }),
    baseline(name),
  ]);
  const firstTurn = run.mock.turns[0]?.at;
  const connectMs = firstTurn === undefined ? null : firstTurn - run.t0;
  check(`${label}: exits by itself within ${RUN_TIMEOUT_MS / 1000} s`, !run.timedOut, `exit ${run.exit}; see ${root}/client.log`);
  check(`${label}: reaches the model with the cordon tools`, connectMs !== null, tail(run.out));
  let overMs = connectMs === null || base === null ? null : connectMs - base;
  let measured = `${fmtMs(connectMs)} with cordon, ${fmtMs(base)} without MCP`;
  // A client whose own start varies by seconds (opencode takes 7 to 27 s here, with or without MCP)
  // can land either start late: measure the pair up to twice more and keep the least difference
  // before calling it a stall (a real stall, such as a request the client waits out, repeats).
  for (let again = 0; again < CONNECT_RETRIES && overMs !== null && overMs >= CONNECT_MS; again++) {
    const pair = await connectPair(name, transport);
    if (pair === null) continue;
    measured += `; measured again: ${fmtMs(pair.connectMs)} with cordon, ${fmtMs(pair.baseMs)} without MCP`;
    overMs = Math.min(overMs, pair.overMs);
  }
  check(`${label}: connect (start to the first model request with the cordon tools, less the same client's start to its first model request without MCP) under ${CONNECT_MS} ms`,
    overMs !== null && overMs < CONNECT_MS, measured);
  const bad = BAD_LOG.exec(run.logs);
  check(`${label}: clean client log`, !bad, bad && around(run.logs, bad.index));
  // What the model must get is what the server sent this client (its result budget can depend on the
  // client's name); harness run's text for the same call is the check that the server sent the contract.
  const sent = serverResults(run.calls, STEPS);
  const rows = STEPS.map((s, i) => {
    const want = sent[i] ? fromMCP(sent[i]) : ref[i];
    check(`${label}: ${s.id}: the server's answer was recorded`, !!sent[i]);
    const row = assess(label, s, want, record[i], CLIENTS[name].wire);
    if (s.want) pinned(label, s, s.want(ws), want, ref[i], record[i]);
    row.runBytes = Buffer.byteLength(ref[i].texts.join("\n"));
    row.sameAsRun = JSON.stringify(ref[i].texts.map(untimed)) === JSON.stringify(want.texts.map(untimed));
    check(`${label}: ${s.id}: the reference run gives ${s.code ?? "a success"}`, ref[i].code === s.code && ref[i].isError === (s.code !== null),
      `got ${ref[i].code ?? "no code"}, isError ${ref[i].isError}: ${JSON.stringify(ref[i].texts).slice(0, 200)}`);
    for (const h of s.has ?? []) {
      check(`${label}: ${s.id}: the server's text says ${JSON.stringify(h)}`, want.texts.some((t) => t.includes(h)), JSON.stringify(want.texts).slice(0, 300));
    }
    return row;
  });
  return { name, transport, label, root, connectMs, overMs, baseMs: base, rows, names, exit: run.exit, elapsed: run.elapsed, others: run.mock.other.length };
}

/** serverResults finds, for each step, the server's answer to the client's call of it (in order). */
function serverResults(calls, steps) {
  const used = new Set();
  return steps.map((s) => {
    const i = calls.findIndex((c, j) => !used.has(j) && c.result && c.name === s.tool && canon(c.arguments) === canon(s.args));
    if (i < 0) return null;
    used.add(i);
    return calls[i].result;
  });
}

/**
 * compose writes the suite's composition for root's workspace (diagnostics.mjs) and returns
 * {args, same, detail}.
 */
function compose(root) {
  mkdirSync(join(root, "ws"), { recursive: true });
  return diagnosticsComposition(bin, join(root, "ws"), fakels, join(root, "cordon.yaml"),
    { PATH: process.env.PATH, XDG_STATE_HOME: join(root, "state") });
}

/**
 * pinned checks a step whose result the scenario pins (the lsp-diagnostics block): the server sent
 * exactly those text blocks, `harness run` gives them too, and each reaches the model whole.
 */
function pinned(label, s, exact, sent, ref, rec) {
  const show = (texts) => JSON.stringify(texts);
  check(`${label}: ${s.id}: the server sent exactly the pinned text blocks`, show(sent.texts) === show(exact),
    `sent ${show(sent.texts)}, want ${show(exact)}`);
  check(`${label}: ${s.id}: harness run gives exactly the pinned text blocks`, show(ref.texts) === show(exact),
    `run gives ${show(ref.texts)}, want ${show(exact)}`);
  if (!rec) return; // assess has said that no result came back
  for (const [k, t] of exact.entries()) {
    check(`${label}: ${s.id}: text block ${k + 1} of ${exact.length} reaches the model whole`, rec.result.texts.some((x) => x.includes(t)),
      `want ${JSON.stringify(t)}; the result starts ${JSON.stringify(rec.result.payload.slice(0, 300))}`);
  }
}

/** untimed masks the RFC 3339 times in a text (undo's names when the change it undid was made). */
const untimed = (t) => t.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\b/g, "<time>");

/** canon is a value's JSON with object keys sorted. */
const canon = (v) => JSON.stringify(v, (_, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

/** fromMCP is the expectation of an MCP tool result as the server sent it. */
function fromMCP(r) {
  const content = (r.content ?? []).map((b) => (b.type === "image" ? { type: "image", mediaType: b.mimeType, data: b.data } : b));
  return expectation({ isError: r.isError === true, code: r._meta?.error?.code ?? null, content });
}

/** assess compares one step's result as the model got it with what the server sent. */
function assess(label, s, want, rec, wire) {
  const row = { id: s.id, code: want.code, wantBytes: Buffer.byteLength(want.texts.join("\n")), got: !!rec };
  if (!check(`${label}: ${s.id}: the client sent a result back`, !!rec)) return row;
  const texts = rec.result.texts;
  row.payloadBytes = Buffer.byteLength(rec.result.payload);
  row.intact = want.texts.every((t) => texts.some((x) => x.includes(t)));
  check(`${label}: ${s.id}: the contract's text reaches the model whole`, row.intact,
    `want ${row.wantBytes} bytes, the result carries ${texts.reduce((n, t) => Math.max(n, t.length), 0)} at most; starts ${JSON.stringify(rec.result.payload.slice(0, 160))}`);
  row.form = !row.intact ? "" : want.texts.every((t) => rec.result.plain.some((x) => x.includes(t))) ? "text" : "inside JSON";
  // What surrounds the contract's text: in the string the model reads (or, for JSON, the innermost one).
  const host = wire !== "gemini" && rec.result.payload.includes(want.texts[0])
    ? rec.result.payload : texts.findLast((x) => x.includes(want.texts[0])) ?? "";
  if (row.form === "inside JSON") {
    row.prefix = rec.result.payload.slice(0, 60);
    row.suffix = rec.result.payload.slice(-30);
  } else if (host) {
    const last = want.texts[want.texts.length - 1];
    row.prefix = host.slice(0, host.indexOf(want.texts[0]));
    row.suffix = host.slice(host.lastIndexOf(last) + last.length);
  }
  row.isError = rec.result.isError;
  row.carriesMetaError = /"_meta"\s*:\s*\{[^}]*"error"/.test(rec.result.payload) || /FS_[A-Z_]+/.test(rec.result.payload);
  if (want.images.length) {
    const inResult = images(rec.result.item);
    const inRequest = images(rec.body);
    const where = (img) => (inResult.some((x) => x.data === img.data) ? "in the result" : inRequest.find((x) => x.data === img.data)?.path ?? null);
    row.image = want.images.map(where);
    check(`${label}: ${s.id}: the image reaches the model as an image`, row.image.every(Boolean),
      `image parts in the request: ${inRequest.length}`);
  }
  return row;
}

const fmtMs = (ms) => (ms === null || ms === undefined ? "n/a" : `${(ms / 1000).toFixed(2)} s`);
const tail = (s) => s.slice(-1500);
const around = (s, i) => s.slice(Math.max(0, i - 300), i + 300);
const cell = (s) => (s === undefined ? "" : JSON.stringify(s).replace(/\|/g, "\\|").slice(0, 60));

/** pool runs fns at most n at a time. */
async function pool(items, n, fn) {
  const out = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (e) {
        check(`${items[i].name} ${items[i].transport ?? "probe"}: ran`, false, e.stack);
        out[i] = null;
      }
    }
  }));
  return out;
}

/** baseline is a client's start to its first model request with no MCP server (null if none came). */
/** connectPair starts the client with harness serve and without MCP at the same moment, and gives both start times. */
async function connectPair(name, transport) {
  const root = tempRoot(`cordon-${name}-${transport}-again-`);
  layout(join(root, "ws"));
  const { args: serveArgs } = compose(root);
  const [run, baseMs] = await Promise.all([
    runClient({ name, transport, bin, nm, nodeBin, root, script: () => ({ text: "done" }), timeoutMs: 60000, serveArgs }),
    baseline(name),
  ]);
  const at = run.mock.turns[0]?.at;
  if (at === undefined || baseMs === null) return null;
  return { connectMs: at - run.t0, baseMs, overMs: at - run.t0 - baseMs };
}

async function baseline(name) {
  const root = tempRoot(`cordon-${name}-none-`);
  layout(join(root, "ws"));
  const run = await runClient({ name, transport: "none", bin, nm, nodeBin, root, script: () => ({ text: "done" }), timeoutMs: 60000 });
  return run.mock.firstToolsAt === undefined ? null : run.mock.firstToolsAt - run.t0;
}

const started = performance.now();
const names = [...new Set(runs.map((r) => r.name))];
const parallel = Number(process.env.CLIENTS_PARALLEL || 2);
const order = (r) => Object.keys(CLIENTS).indexOf(r.name) * 2 + (r.transport === "http");
const results = (await pool(runs, parallel, scenario)).filter(Boolean).sort((a, b) => order(a) - order(b));
const probes = doProbe ? (await pool(names.map((name) => ({ name })), parallel, (p) => probe({ ...p, bin, nm, nodeBin, check }))).filter(Boolean) : [];

let md = `# What each client hands its model\n\nEach row is one tool call made by the scripted model; "sent" is the text the server sent the client for it, "= run" whether that is the text \`harness run\` gives for the same call on the same workspace (its bytes when not); "payload" is the length of the tool result as the model reads it (a string as sent; the text parts of a list, joined with newlines; Gemini's response object as JSON); "whole" says whether every contract text block is in it unchanged; "around" is the text the client put before and after it.\n`;
for (const r of results) {
  md += `\n## ${CLIENTS[r.name].label}, ${r.transport}\n\nfirst model request with the cordon tools after ${fmtMs(r.connectMs)} (without MCP: ${fmtMs(r.baseMs)}; connect ${fmtMs(r.overMs)}), run ${fmtMs(r.elapsed)}, exit ${r.exit}; tools named ${Object.values(r.names).filter(Boolean).join(", ")}\n\n`;
  md += "| call | code | sent bytes | = run | payload bytes | whole | as | before | after | error flag | image |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const w of r.rows) {
    md += `| ${w.id} | ${w.code ?? ""} | ${w.wantBytes} | ${w.sameAsRun ? "yes" : `no (${w.runBytes})`} | ${w.got ? w.payloadBytes : "no result"} | ${w.got ? (w.intact ? "yes" : "**no**") : ""} | ${w.form ?? ""} | ${cell(w.prefix)} | ${cell(w.suffix)} | ${w.isError === undefined ? "none" : w.isError} | ${w.image ? w.image.map((x) => x ?? "**not an image**").join(", ") : ""} |\n`;
  }
}
if (probes.length) {
  md += "\n## Inline limit: the largest `read` result each client passes whole\n\n| client | largest whole (chars of text, the client's wrapper aside) | smallest cut (chars) | what a cut result looks like |\n|---|---|---|---|\n";
  for (const p of probes) md += `| ${CLIENTS[p.name].label} | ${p.whole ?? "n/a"} | ${p.cut ?? "n/a"} | ${cell(p.cutLooks)} |\n`;
}
writeFileSync(join(outDir, "table.md"), md);
console.log(md);
console.log(`clients: table written to ${join(outDir, "table.md")} in ${fmtMs(performance.now() - started)}`);
for (const f of failures) console.error(`FAIL ${f}`);
console.log(`clients: ${passes} passed, ${failures.length} failed`);
process.exitCode = failures.length ? 1 : 0;
