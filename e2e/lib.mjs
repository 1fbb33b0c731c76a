// Shared helpers for the e2e flow and the benchmark: spawning `harness serve` (or any stdio MCP server)
// through the official TypeScript SDK client, and small assertion helpers that collect mismatches.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** repoRoot is the Cordon repository root (the parent of e2e/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * texts loads a plugin's model-facing texts, dir/texts.json (docs/texts.md): the file the Go code
 * embeds and renders. It returns t(key, values): key's template with each placeholder `{name}`
 * replaced by values[name]; a missing key, a placeholder without a value or a value no placeholder
 * takes throws, as the Go tests' rendering fails.
 */
export function texts(dir) {
  const file = join(repoRoot, dir, "texts.json");
  const all = JSON.parse(readFileSync(file, "utf8"));
  return (key, values = {}) => {
    if (!Object.hasOwn(all, key)) throw new Error(`${file}: no text "${key}"`);
    const used = new Set();
    const out = all[key].replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name) => {
      if (!Object.hasOwn(values, name)) throw new Error(`${file}: "${key}": no value for {${name}}`);
      used.add(name);
      return String(values[name]);
    });
    for (const name of Object.keys(values)) {
      if (!used.has(name)) throw new Error(`${file}: "${key}": no placeholder {${name}}`);
    }
    return out;
  };
}

/** fsText renders tool-fs's texts (read, write, edit). */
export const fsText = texts("plugins/toolfs");

/** envelope is a read's text: the envelope around body. */
export const envelope = (path, body) => fsText("read.envelope", { path, body });

/** The footers of a read window (docs/tool-fs.md "The text the model sees"). */
export const endOf = (total) => fsText("read.footer.end", { total });
export const showing = (offset, end, total) => fsText("read.footer.window", { offset, end, total, next: end + 1 });
export const capped = (offset, end) => fsText("read.footer.capped", { offset, end, next: end + 1 });

/** linesText spells a number of lines as write's counts do. */
const linesText = (n) => (n === 1 ? fsText("lines.one") : fsText("lines.many", { n }));

/** written is write's text: a new file of n lines (before undefined), or before lines replaced by n. */
export function written(path, n, before) {
  const created = before === undefined;
  const counts = created ? fsText("write.counts.new", { lines: linesText(n) })
    : fsText("write.counts.replaced", { lines: linesText(n), before: linesText(before) });
  return fsText("write.success", { envelope: envelope(path, fsText(created ? "write.created" : "write.updated")), counts });
}

/** edited is edit's text; with replaced, a replace_all's, followed by that note. */
export const edited = (path, replaced) => (replaced === undefined ? fsText("edit.success", { path })
  : fsText("edit.success.replace_all", { path, replaced }));

/**
 * stateEnv is this process's environment with XDG_STATE_HOME at a fresh directory: a measured
 * `harness serve` starts with a state directory (history, journals, spills) of its own, so what
 * earlier runs left does not weigh on it.
 */
export function stateEnv() {
  return { ...process.env, XDG_STATE_HOME: tempDir("cordon-state-") };
}

/** tempDir makes a fresh directory and returns its real path (so displayPaths compare equal). */
export function tempDir(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * harnessBinary returns the harness binary to drive: $HARNESS when set, otherwise a fresh
 * `go build` of ./cmd/harness into a temporary directory.
 */
export function harnessBinary() {
  if (process.env.HARNESS) return process.env.HARNESS;
  const out = join(tempDir("cordon-bin-"), "harness");
  execFileSync("go", ["build", "-o", out, "./cmd/harness"], { cwd: repoRoot, stdio: "inherit" });
  return out;
}

/**
 * connect spawns command with args over stdio (env: its whole environment; by default the SDK's
 * short list) and returns a connected SDK client. With onElicit the
 * client declares the elicitation capability and answers elicitation/create requests with it.
 */
export async function connect(command, args, { cwd, env, name = "cordon-e2e", onElicit } = {}) {
  // The server inherits this process's environment, as a spawned child does (the SDK's transport
  // would pass only HOME, PATH and a few others): e2e/run.sh's XDG_STATE_HOME reaches it.
  const transport = new StdioClientTransport({ command, args, cwd, env: env ?? process.env, stderr: "pipe" });
  const stderr = [];
  transport.stderr?.on("data", (b) => stderr.push(String(b)));
  const client = new Client({ name, version: "0.0.0" }, onElicit ? { capabilities: { elicitation: {} } } : undefined);
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (req) => onElicit(req.params));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr.join("") };
}

/**
 * serveHTTP starts `harness serve --http 127.0.0.1:0 args...` and resolves once its ready line names the
 * URL. stop(signal) sends the signal and resolves with the exit code (or the signal that ended it).
 */
export async function serveHTTP(bin, args, { env } = {}) {
  const proc = spawn(bin, ["serve", "--http", "127.0.0.1:0", ...args], {
    stdio: ["ignore", "ignore", "pipe"], env: env ?? process.env });
  const chunks = [];
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve(code ?? signal)));
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on("data", (b) => {
      chunks.push(String(b));
      const m = chunks.join("").match(/ready: serving MCP over HTTP\s+\{"url": "(http:\/\/[^"]+)"/);
      if (m) resolve(m[1]);
    });
    exited.then((code) => reject(new Error(`harness serve --http exited (${code}) before its ready line:\n${chunks.join("")}`)));
  });
  return {
    url,
    proc,
    stderr: () => chunks.join(""),
    stop: (signal = "SIGTERM") => {
      proc.kill(signal);
      return exited;
    },
    exited,
  };
}

/**
 * connectHTTP opens an MCP session over Streamable HTTP. token adds `Authorization: Bearer`; headers are
 * sent on every request; onElicit as for connect.
 */
export async function connectHTTP(url, { token, headers = {}, name = "cordon-e2e-http", onElicit } = {}) {
  const all = { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: all } });
  const client = new Client({ name, version: "0.0.0" }, onElicit ? { capabilities: { elicitation: {} } } : undefined);
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (req) => onElicit(req.params));
  await client.connect(transport);
  return { client, transport };
}

/** Checker collects mismatches instead of throwing, so one run reports every failure. */
export class Checker {
  constructor() {
    this.failures = [];
    this.passes = 0;
  }

  /** eq compares two values by their JSON form. */
  eq(label, got, want) {
    const g = JSON.stringify(got);
    const w = JSON.stringify(want);
    if (g === w) {
      this.passes++;
      return true;
    }
    this.failures.push(`${label}:\n  got:  ${g}\n  want: ${w}`);
    return false;
  }

  /** ok records a boolean condition. */
  ok(label, cond, detail = "") {
    if (cond) {
      this.passes++;
      return true;
    }
    this.failures.push(`${label}${detail ? `: ${detail}` : ""}`);
    return false;
  }

  /**
   * finish prints the summary and sets the exit code: non-zero on any mismatch. The last line has the
   * plain "<word>: N passed, N failed" form that CI log readers recognise.
   */
  finish(name) {
    for (const f of this.failures) console.error(`FAIL ${f}`);
    console.log(name);
    console.log(`e2e: ${this.passes} passed, ${this.failures.length} failed`);
    process.exitCode = this.failures.length === 0 ? 0 : 1;
  }
}

/** textOf joins the text blocks of a tool result with "\n". */
export function textOf(result) {
  return (result.content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

/**
 * writeDenial is the model-facing text of a write denied under workspace-write, on a connection
 * with an approval channel (docs/tool-fs.md "Sandbox escalation"): the marker, the escalation line,
 * the path and the writable roots (ws, then — unless tempRoots is false — /tmp and $TMPDIR, each
 * in canonical form, without repeats).
 */
export function writeDenial(path, ws, tempRoots = true) {
  const roots = [ws];
  if (tempRoots) {
    for (const t of ["/tmp", (process.env.TMPDIR || "/tmp").replace(/(.)\/$/, "$1")]) {
      let r = t;
      try { r = realpathSync(t); } catch { /* kept as spelled */ }
      if (!roots.includes(r)) roots.push(r);
    }
  }
  return "Error: [sandbox: file access denied under workspace-write mode]\n" +
    "[sandbox: escalation available — retry this exact operation once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]\n" +
    `cannot write "${path}": it is outside the writable roots, or under a protected path (.git); writable roots:` +
    roots.map((r) => `\n  ${r}`).join("");
}
