// scenario.mjs is what the scripted model asks for: one tool call per turn, one per tool and error
// class, on a workspace laid out the same way every time (fixed contents and mtimes, so glob's
// newest-first order is the same). reference() runs the same calls through `harness run` on the same
// path and returns the text and images the contract gives for each: the suite compares what each
// client hands its model with that.

import { spawn } from "node:child_process";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DIAGNOSTICS_STEPS, layoutDiagnostics } from "./diagnostics.mjs";

// A 1x1 RGBA PNG: a clean small PNG is stored as is, so the model must get these very bytes.
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

// A notebook as nbformat writes it (4.5, one space of indentation, sorted keys): a code cell whose
// outputs are a stream and the PNG above, then a markdown cell.
const NOTEBOOK = JSON.stringify({
  cells: [
    {
      cell_type: "code", execution_count: 1, id: "c1", metadata: {},
      outputs: [
        { name: "stdout", output_type: "stream", text: ["hi\n"] },
        { data: { "image/png": PNG_1X1.toString("base64"), "text/plain": ["<Figure>"] }, metadata: {}, output_type: "display_data" },
      ],
      source: ["print('hi')\n", "plot()"],
    },
    { cell_type: "markdown", id: "m1", metadata: {}, source: ["# Notes"] },
  ],
  metadata: { language_info: { name: "python" } },
  nbformat: 4,
  nbformat_minor: 5,
}, null, 1) + "\n";

const BIG_LINES = 2000;
const bigLine = (i) => `line ${String(i).padStart(4, "0")} of the big file: ${"lorem ipsum dolor sit amet ".repeat(2)}`;

/** layout (re)creates the workspace dir with the scenario's files and fixed mtimes. */
export function layout(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "src"), { recursive: true });
  const files = [
    ["small.txt", "hello\nworld\n"],
    ["big.txt", Array.from({ length: BIG_LINES }, (_, i) => bigLine(i + 1)).join("\n") + "\n"],
    ["unread.txt", "one\n"],
    ["stale.txt", "alpha\nbeta\n"],
    ["dot.png", PNG_1X1],
    ["nb.ipynb", NOTEBOOK],
    ["src/a.go", "package src\n\nfunc needle() int { return 1 }\n"],
    ["src/b.go", "package src\n\n// needle is found here too\nvar b = needle()\n"],
  ];
  files.forEach(([name, body], i) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    const t = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    utimesSync(p, t, t);
  });
  layoutDiagnostics(dir);
}

/** changeBehind is the other writer: it changes stale.txt on disk after the model read it. */
function changeBehind(dir) {
  const p = join(dir, "stale.txt");
  writeFileSync(p, "alpha\nbeta changed by someone else\n");
  const t = new Date(Date.UTC(2026, 0, 2));
  utimesSync(p, t, t);
}

/** patch is an apply_patch input that updates big.txt (read by an earlier step) with one chunk of lines. */
const patch = (...lines) => ["*** Begin Patch", "*** Update File: big.txt", "@@", ...lines, "*** End Patch"].join("\n");

// ---- What the model reads (issue 34): the refusals that name the next step, and undo of one file of a
// patch. Their files are made by the block's first step (before), so the workspace's layout and the
// steps above are as they were. Each step's text reaches the model whole like every step's; has lists
// the guidance the server's text must carry (docs/tool-fs.md, docs/history.md).
const GUARD_LINES = 212;
const SIX_LINES = "one\ntwo\nthree\nfour\nfive\nsix\n";

/** layoutModelReads writes the files of the block below. */
function layoutModelReads(dir) {
  writeFileSync(join(dir, "guard.txt"), Array.from({ length: GUARD_LINES }, (_, i) => `guard line ${i + 1}`).join("\n") + "\n");
  writeFileSync(join(dir, "prefixed.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(join(dir, "group.txt"), "g\n");
}

const MODEL_READS_STEPS = [
  { id: "read lines 21-25 (before the write guard)", tool: "read", args: { file_path: "guard.txt", offset: 21, limit: 5 }, code: null, before: layoutModelReads },
  { id: "write dropping unread lines", tool: "write", args: { file_path: "guard.txt", content: SIX_LINES }, code: "FS_WOULD_DROP_LINES",
    has: [`it would drop ${GUARD_LINES - 5} of its ${GUARD_LINES} lines`, "Only lines 21-25 were read", "use edit or apply_patch", "send this same write again"] },
  { id: "the same write again", tool: "write", args: { file_path: "guard.txt", content: SIX_LINES }, code: null,
    has: [`Wrote 6 lines; the file had ${GUARD_LINES} lines.`] },
  { id: "read a directory", tool: "read", args: { file_path: "src" }, code: "FS_NOT_REGULAR_FILE", has: ["It is a directory", "call glob with path"] },
  { id: "read (before the prefixed edit)", tool: "read", args: { file_path: "prefixed.txt" }, code: null },
  { id: "edit with read's line prefixes", tool: "edit", args: { file_path: "prefixed.txt", old_string: "2: beta\n3: gamma", new_string: "BETA\nGAMMA" },
    code: "FS_EDIT_NOT_FOUND", has: ["line-number prefixes", "send it without them", "found once, at lines 2-3"] },
  { id: "read (before the two-file patch)", tool: "read", args: { file_path: "group.txt" }, code: null },
  { id: "apply_patch of two files", tool: "apply_patch",
    args: { input: "*** Begin Patch\n*** Add File: pkg/x/made.txt\n+made\n*** Update File: group.txt\n@@\n-g\n+G\n*** End Patch" }, code: null },
  { id: "undo one file of the patch", tool: "undo", args: { file_path: "pkg/x/made.txt" }, code: null,
    has: ["it did not exist, so it was removed.", "It also removed the folders that apply_patch created for it, now empty:",
      "The same apply_patch also changed", "undo it by its file_path to take the whole apply_patch back."] },
];
// ---- end of what the model reads

/**
 * STEPS is the script: id (the table's row), tool, args, the error code the contract gives (null for a
 * success), before (run on the workspace just before the call is made), want (ws => the result's
 * exact text blocks, where the scenario pins them) and has (strings the text the server sent must
 * contain).
 */
export const STEPS = [
  { id: "read small", tool: "read", args: { file_path: "small.txt" }, code: null },
  { id: "read 2000 lines", tool: "read", args: { file_path: "big.txt" }, code: null },
  { id: "glob", tool: "glob", args: { pattern: "**/*.go" }, code: null },
  { id: "grep", tool: "grep", args: { pattern: "needle" }, code: null },
  { id: "read_image", tool: "read_image", args: { file_path: "dot.png" }, code: null, image: true },
  { id: "edit", tool: "edit", args: { file_path: "small.txt", old_string: "world", new_string: "there" }, code: null },
  { id: "edit not found", tool: "edit", args: { file_path: "small.txt", old_string: "absent text", new_string: "x" }, code: "FS_EDIT_NOT_FOUND" },
  { id: "write", tool: "write", args: { file_path: "new.txt", content: "fresh\n" }, code: null },
  { id: "write not read", tool: "write", args: { file_path: "unread.txt", content: "two\n" }, code: "FS_NOT_OBSERVED" },
  { id: "read (before stale)", tool: "read", args: { file_path: "stale.txt" }, code: null },
  { id: "edit stale", tool: "edit", args: { file_path: "stale.txt", old_string: "alpha", new_string: "gamma" }, code: "FS_STALE_VERSION", before: changeBehind },
  { id: "apply_patch", tool: "apply_patch", args: { input: patch(` ${bigLine(1)}`, `-${bigLine(2)}`, "+line 0002 patched", ` ${bigLine(3)}`) }, code: null },
  { id: "apply_patch not found", tool: "apply_patch", args: { input: patch(" this line is not in the file", `-${bigLine(2)}`, "+x") }, code: "FS_EDIT_NOT_FOUND" },
  { id: "read notebook", tool: "read", args: { file_path: "nb.ipynb" }, code: null, image: true },
  { id: "notebook_edit", tool: "notebook_edit", args: { notebook_path: "nb.ipynb", cell_id: "m1", new_source: "# Notes\n\nEdited." }, code: null },
  { id: "undo", tool: "undo", args: { file_path: "small.txt" }, code: null },
  { id: "undo nothing to undo", tool: "undo", args: { file_path: "unread.txt" }, code: "FS_NOT_FOUND" },
  ...MODEL_READS_STEPS,
  // lsp-diagnostics: a new error, then its fix, in a file a fake language server checks (diagnostics.mjs).
  ...DIAGNOSTICS_STEPS,
];

/** HarnessRun drives one `harness run` process a line at a time. */
export class HarnessRun {
  constructor(bin, args, env) {
    this.proc = spawn(bin, ["run", ...args], { stdio: ["pipe", "pipe", "pipe"], env });
    this.stderr = "";
    this.proc.stderr.on("data", (b) => (this.stderr += b));
    this.waiting = [];
    createInterface({ input: this.proc.stdout }).on("line", (l) => this.waiting.shift()?.(JSON.parse(l)));
    this.n = 0;
  }

  /** call sends one line and resolves with its result line. */
  call(tool, args) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`harness run: no answer to ${tool} in 30 s\n${this.stderr}`)), 30000);
      this.waiting.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.proc.stdin.write(JSON.stringify({ id: ++this.n, tool, args }) + "\n");
    });
  }

  /** close ends the input and resolves when the process exits (killed after 10 s). */
  close() {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve();
    this.proc.stdin.end();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.proc.kill("SIGKILL"), 10000);
      this.proc.on("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** expectation is what the model must get for one `run` result: its text blocks and images. */
export function expectation(r) {
  return {
    isError: r.isError,
    code: r.code,
    texts: r.content.filter((b) => b.type === "text").map((b) => b.text),
    images: r.content.filter((b) => b.type === "image").map((b) => ({ mediaType: b.mediaType, data: b.data })),
  };
}

/**
 * reference runs STEPS through `harness run` on dir (laid out fresh, and again afterwards), with args
 * (the suite's --config) before --cwd.
 */
export async function reference(bin, dir, env, args = []) {
  layout(dir);
  const run = new HarnessRun(bin, [...args, "--cwd", dir], env);
  const out = [];
  try {
    for (const s of STEPS) {
      s.before?.(dir);
      out.push(expectation(await run.call(s.tool, s.args)));
    }
  } finally {
    await run.close();
  }
  layout(dir);
  return out;
}
