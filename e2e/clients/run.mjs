// run.mjs runs one client once against a fresh mock model and a fresh `harness serve` (stdio or HTTP)
// on its own workspace and HOME, bounded in time, and returns what the mock saw.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENTS } from "./clients.mjs";
import { MockModel } from "./mock.mjs";
import { httpTap, stdioMessages, stdioTap, toolCalls } from "./tap.mjs";

/** tempRoot makes a fresh directory (real path, so the paths in results compare equal). */
export function tempRoot(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * serveHTTP starts `harness serve --http 127.0.0.1:0` and resolves with {url, stop} once its ready
 * line names the URL (10 s at most).
 */
export function serveHTTP(bin, args, env) {
  const proc = spawn(bin, ["serve", "--http", "127.0.0.1:0", ...args], { stdio: ["ignore", "ignore", "pipe"], env, detached: true });
  let log = "";
  const exited = new Promise((resolve) => proc.on("exit", (code, sig) => resolve(code ?? sig)));
  const stop = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // already gone
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`harness serve --http: no ready line in 10 s\n${log}`));
    }, 10000);
    proc.stderr.on("data", (b) => {
      log += b;
      const m = /ready: serving MCP over HTTP\s+\{"url": "(http:\/\/[^"]+)"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop, log: () => log });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`harness serve --http exited (${code}) before its ready line\n${log}`));
    });
  });
}

/**
 * runClient runs client name over transport ("stdio" | "http" | "none": no MCP server) with the mock driven by script, in
 * root (which holds ws/). It resolves with {mock, t0, exit, out, timedOut, elapsed, logs, calls}:
 * calls are the tools/call requests the client made and what the server answered (tap.mjs).
 */
export async function runClient({ name, transport, bin, nm, nodeBin, root, script, timeoutMs, serveArgs = [] }) {
  const client = CLIENTS[name];
  const ws = join(root, "ws");
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  const mock = new MockModel(script);
  const model = await mock.start();
  let http = null;
  let tap = null;
  try {
    let mcp = null;
    let wire = () => ({ in: [], out: [] });
    if (transport === "http") {
      http = await serveHTTP(bin, [...serveArgs, "--cwd", ws], { PATH: process.env.PATH, XDG_STATE_HOME: join(root, "state") });
      tap = await httpTap(http.url);
      mcp = { url: tap.url };
      wire = tap.messages;
    } else if (transport === "stdio") {
      const [i, o] = [join(root, "mcp-in.jsonl"), join(root, "mcp-out.jsonl")];
      mcp = stdioTap(bin, ["serve", ...serveArgs, "--cwd", ws], i, o);
      wire = () => stdioMessages(i, o);
    }
    const { cmd, args, env } = client.launch({ nm, nodeBin, home, ws, model, mcp });
    const t0 = performance.now();
    const proc = spawn(cmd, args, { cwd: ws, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const cap = (b) => {
      if (out.length < 4 << 20) out += b;
    };
    proc.stdout.on("data", cap);
    proc.stderr.on("data", cap);
    let timedOut = false;
    const exit = await new Promise((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true;
        kill(proc);
      }, timeoutMs);
      proc.on("error", (e) => {
        clearTimeout(timer);
        resolve(`spawn error: ${e.message}`);
      });
      proc.on("exit", (code, sig) => {
        clearTimeout(timer);
        resolve(code ?? sig);
      });
    });
    kill(proc); // whatever the client left running (its stdio MCP server among them)
    const elapsed = performance.now() - t0;
    writeFileSync(join(root, "client.log"), out);
    writeFileSync(join(root, "requests.json"), JSON.stringify({ turns: mock.turns, other: mock.other }, null, 1));
    return { mock, t0, exit, out, timedOut, elapsed, logs: out + collectLogs(home) + (http ? http.log() : ""), calls: toolCalls(wire()) };
  } finally {
    await tap?.stop();
    await http?.stop();
    await mock.stop();
  }
}

function kill(proc) {
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    // the group is gone
  }
}

/** collectLogs concatenates the *.log files a client wrote under its HOME (bounded). */
function collectLogs(dir, depth = 0) {
  let s = "";
  if (depth > 6) return s;
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return s;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) s += collectLogs(p, depth + 1);
    else if (/\.(log|txt|jsonl)$/.test(e.name) && statSync(p).size < 8 << 20) s += `\n--- ${p}\n${readFileSync(p, "utf8")}`;
  }
  return s;
}
