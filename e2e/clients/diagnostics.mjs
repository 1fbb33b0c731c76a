// diagnostics.mjs is the lsp-diagnostics part of the scenario (docs/diagnostics.md "What the model
// sees"): an edit that introduces an error, then the edit that fixes it, in a file a fake language
// server checks, so every client is held to carrying the diagnostics block whole. The fake server
// (internal/lsp/testdata/fakels, built by run.sh) reports each line holding "ERROR: <text>" as an
// error at once, so nothing here depends on a real server's timing: the suite's composition is the
// default profile with that server added for *.fk files and a wait it cannot miss.

import { execFileSync } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** DIAG_FILE is the file the fake server checks: under diag/, whose fake.root marks its root. */
const DIAG_FILE = "diag/main.fk";

// It has an error from the start: the block must not repeat it (a delta, not the file's list).
const DIAG_TEXT = "first line\nERROR: an old problem\nvalue = 1\n";

// WAIT is lsp-diagnostics' bound for the suite. The fake server answers within milliseconds; 30 s
// cannot be missed short of a broken server (and stays under Codex's 60 s tool timeout).
const WAIT = "30s";

/** layoutDiagnostics adds the fake server's root and file to the workspace dir (fixed mtimes). */
export function layoutDiagnostics(dir) {
  mkdirSync(join(dir, "diag"), { recursive: true });
  [["diag/fake.root", ""], [DIAG_FILE, DIAG_TEXT]].forEach(([name, body], i) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    const t = new Date(Date.UTC(2025, 0, 1, 0, 0, i)); // older than every other file: glob's order stays
    utimesSync(p, t, t);
  });
}

/** server is the name a block gives the fake server: its program's base name. */
const server = () => basename(process.env.FAKELS ?? "fakels");

/** edited is edit's own success text for the file. */
const edited = (f) => `The file ${f} has been updated successfully.`;

/**
 * DIAGNOSTICS_STEPS are the scenario's steps on the fake server's file; want(ws) is the exact text
 * blocks of the result: the tool's own text, then the lsp-diagnostics block, as the model view
 * suite expects them.
 */
export const DIAGNOSTICS_STEPS = [
  { id: "read (before diagnostics)", tool: "read", args: { file_path: DIAG_FILE }, code: null },
  {
    id: "edit with a new error (lsp-diagnostics)", tool: "edit",
    args: { file_path: DIAG_FILE, old_string: "value = 1", new_string: "ERROR: undefined: value" }, code: null,
    want: (ws) => {
      const f = join(ws, DIAG_FILE);
      return [edited(f), `Diagnostics (${server()}) of ${f}: 1 new problem from this change (1 error, 0 warnings):\n` +
        `${f}:3:1: undefined: value (fake)`];
    },
  },
  {
    id: "edit that fixes it (lsp-diagnostics)", tool: "edit",
    args: { file_path: DIAG_FILE, old_string: "ERROR: undefined: value", new_string: "value = 1" }, code: null,
    want: (ws) => {
      const f = join(ws, DIAG_FILE);
      return [edited(f), `Diagnostics (${server()}) of ${f}: no new problems from this change.\nFixed by this change: 1 problem.`];
    },
  },
];

/** flow is v in YAML's flow style as `harness config` prints it: JSON with a space after each ":" and ",". */
const flow = (v) => (Array.isArray(v) ? `[${v.map(flow).join(", ")}]`
  : v && typeof v === "object" ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${flow(x)}`).join(", ")}}`
  : JSON.stringify(v));

/**
 * diagnosticsComposition writes to file the composition the suite serves ws with: the default
 * profile as `harness config --cwd ws` prints it, less the spill directory the host adds to every
 * composition itself (it follows each process's state directory), with lsp-diagnostics configured
 * for the fake server. It returns {args} (the flags that name it) and {same, detail}: whether
 * `harness config` of the file is the default profile's with only that entry's config added.
 */
export function diagnosticsComposition(bin, ws, fakels, file, env) {
  const config = (...args) => execFileSync(bin, ["config", ...args, "--cwd", ws], { env, encoding: "utf8" });
  const body = (printed) => printed.slice(printed.indexOf("\n") + 1); // past the "# <source>" line
  const def = body(config());
  const entry = "    name: lsp-diagnostics\n";
  const at = def.indexOf(entry);
  const next = def.slice(at + entry.length);
  if (at < 0 || def.indexOf(entry, at + 1) >= 0 || !(next === "" || next.startsWith("  - "))) {
    throw new Error(`diagnostics: the default profile has no single lsp-diagnostics entry without config:\n${def}`);
  }
  const line = `    config: ${flow({ wait: WAIT, servers: { fake: { commands: [[fakels]], extensions: { ".fk": "fake" }, rootMarkers: ["fake.root"] } } })}\n`;
  const want = def.slice(0, at + entry.length) + line + next;
  const spill = /, readOnlyRoots: \[[^\]\n]*\]/g;
  if ((want.match(spill) ?? []).length !== 1) throw new Error(`diagnostics: no single readOnlyRoots (the spill directory) in:\n${def}`);
  writeFileSync(file, want.replace(spill, ""));
  // Each process saves its over-cap results in a spill directory of its own (docs/sandbox.md "Roots").
  const own = (s) => s.replace(/\/cordon\/spill\/p-[0-9a-f]{16}\]/g, "/cordon/spill/p-<process>]");
  const got = body(config("--config", file));
  return { args: ["--config", file], same: own(got) === own(want), detail: `harness config of ${file}:\n${got}\nwant:\n${want}` };
}
