// probe.mjs measures a client's inline limit: the largest tool result it hands its model whole. The
// mock model asks for `read`s of files it writes just before each call, bisecting on the file's size:
// each result is compared with what `harness run` gives for the same read, whole or not. The server
// runs with caps raised so that `read` itself cuts nothing (probe.yaml), so only the client can.

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENTS } from "./clients.mjs";
import { runClient, tempRoot } from "./run.mjs";
import { expectation, HarnessRun } from "./scenario.mjs";
import { toolResults } from "./results.mjs";
import { toolName } from "./script.mjs";

const LO = 1000; // every client passes this whole
const HI = 400000; // and cuts this
const MAX_TURNS = 40;
const BIG = 16 << 20;

/** probeConfig writes the probe's composition; it raises the result budget where the build has one. */
function probeConfig(bin, root) {
  const base = `plugins:\n  - name: fs-local\n  - name: fs-observation-policy\n  - name: tools\n  - name: tool-fs\n    config:\n      readLimit: 1000000\n      readMaxBytes: ${BIG}\n`;
  const withBudget = `${base}      resultBudget: ${BIG}\n      resultBudgetByClient: {claude-code: ${BIG}}\n`;
  const file = join(root, "probe.yaml");
  for (const yaml of [withBudget, base]) {
    writeFileSync(file, yaml);
    try {
      execFileSync(bin, ["config", "--config", file, "--cwd", root], { stdio: "ignore" });
      return file;
    } catch {
      // this build has no result budget keys: the plain caps are all there is to raise
    }
  }
  throw new Error("probe: harness config rejects the probe composition");
}

/**
 * content is n characters of 'x' in lines of 1,999 (under read's 2,000-character line cut): each more
 * character makes the read one longer, except where a new line starts (its number comes in too).
 */
const content = (n) => ("x".repeat(1999) + "\n").repeat(Math.floor(n / 2000)) + "x".repeat(n % 2000);

/** probe bisects client name's inline limit over HTTP; it resolves with {name, whole, cut, cutLooks}. */
export async function probe({ name, bin, nm, nodeBin, check }) {
  const root = tempRoot(`cordon-probe-${name}-`);
  const ws = join(root, "ws");
  mkdirSync(ws, { recursive: true });
  const config = probeConfig(bin, root);
  const ref = new HarnessRun(bin, ["--config", config, "--cwd", ws], { PATH: process.env.PATH });
  const wire = CLIENTS[name].wire;
  const len = new Map(); // size -> contract chars
  let lo = null;
  let hi = null;
  let pending = null;
  let cutLooks;
  let asked = 0;
  const script = async (turn) => {
    const results = toolResults(wire, turn.body);
    if (pending && results.length > pending.before) {
      const got = results[results.length - 1];
      const whole = pending.want.every((t) => got.texts.some((x) => x.includes(t)));
      if (whole) lo = Math.max(lo ?? 0, pending.size);
      else {
        hi = Math.min(hi ?? Infinity, pending.size);
        if (hi === pending.size) cutLooks = `${got.payload.slice(0, 120)} … ${got.payload.slice(-120)} (${got.payload.length} chars)`;
      }
      pending = null;
    }
    let size;
    if (lo === null && hi === null) size = LO;
    else if (hi === null) size = lo < HI ? HI : null;
    else if (lo === null) size = null; // even LO is cut: nothing to bisect
    else size = hi - lo > 1 ? Math.floor((lo + hi) / 2) : null;
    if (size === null || asked >= MAX_TURNS) return { text: "done" };
    const tool = toolName(turn.tools, "read");
    if (!tool) return { text: "mock: the client offers no cordon read tool" };
    const file = `p${String(++asked).padStart(2, "0")}.txt`;
    writeFileSync(join(ws, file), content(size));
    const want = expectation(await ref.call("read", { file_path: file })).texts;
    len.set(size, want.join("\n").length);
    pending = { size, want, before: results.length };
    return { tool, args: { file_path: file } };
  };
  try {
    const run = await runClient({ name, transport: "http", bin, nm, nodeBin, root, script, timeoutMs: 240000, serveArgs: ["--config", config] });
    const label = `${name} probe`;
    check(`${label}: exits by itself`, !run.timedOut, `exit ${run.exit}; see ${root}/client.log`);
    check(`${label}: passes a ${LO}-byte file's read whole and cuts a ${HI}-byte one`, lo !== null && hi !== null, `whole ${lo}, cut ${hi}`);
    check(`${label}: bisected to one character`, lo !== null && hi !== null && hi - lo === 1, `whole ${lo}, cut ${hi}`);
    return { name, whole: lo === null ? null : len.get(lo), cut: hi === null ? null : len.get(hi), cutLooks, turns: asked };
  } finally {
    await ref.close();
  }
}
