// Shared helpers for the e2e flow and the benchmark: spawning `harness serve` (or any stdio MCP server)
// through the official TypeScript SDK client, and small assertion helpers that collect mismatches.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** repoRoot is the Cordon repository root (the parent of e2e/). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

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
 * connect spawns command with args over stdio and returns a connected SDK client. With onElicit the
 * client declares the elicitation capability and answers elicitation/create requests with it.
 */
export async function connect(command, args, { cwd, name = "cordon-e2e", onElicit } = {}) {
  const transport = new StdioClientTransport({ command, args, cwd, stderr: "pipe" });
  const stderr = [];
  transport.stderr?.on("data", (b) => stderr.push(String(b)));
  const client = new Client({ name, version: "0.0.0" }, onElicit ? { capabilities: { elicitation: {} } } : undefined);
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (req) => onElicit(req.params));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr.join("") };
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
