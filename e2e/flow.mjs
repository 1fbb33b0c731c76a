// flow.mjs drives `harness serve` with the official MCP TypeScript SDK client through the tool flow of
// the host issue: list tools, read, an unread overwrite refused, read, write, edit, a stale edit after an
// external change; then the same flow with a composition that lacks fs-observation-policy
// (unconditional, still atomic, writes); then the sandboxed profile, whose escalation is asked through
// MCP elicitation. It exits non-zero on any mismatch.
//
// Usage: node e2e/flow.mjs            (builds ./cmd/harness with go)
//        HARNESS=/path/to/harness node e2e/flow.mjs

import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Checker, connect, edited, endOf, envelope, harnessBinary, tempDir, textOf, writeDenial, written } from "./lib.mjs";

const SCHEMAS = {
  read: {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The file to read. Absolute, or relative to the session's working directory." },
      offset: { type: "number", description: "1-based first line to return. Defaults to 1." },
      limit: { type: "number", description: "Maximum number of lines to return. Defaults to 2000." },
    },
    required: ["file_path"],
  },
  write: {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The file to write. Absolute, or relative to the session's working directory." },
      content: { type: "string", description: "Full UTF-8 text content to write." },
    },
    required: ["file_path", "content"],
  },
  edit: {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The file to edit. Absolute, or relative to the session's working directory." },
      old_string: { type: "string", description: "Literal text to replace. Must match exactly." },
      new_string: {
        type: "string",
        description: "Literal replacement text. Use an empty string to delete the match.",
      },
      replace_all: {
        type: "boolean",
        description: "Replace all matches. Defaults to false; when false, old_string must appear exactly once.",
      },
    },
    required: ["file_path", "old_string", "new_string"],
  },
};

const READ_GUIDANCE =
  "Use the read tool — not shell commands like cat — to inspect text files. Results include line numbers. Use offset and limit to continue reading large files.";


// A 1x1 RGBA PNG.
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const errorOf = (r) => r._meta?.error ?? null;

// The two properties a confining composition (the default) adds to write and edit
// (docs/tool-fs.md "Sandbox escalation").
const ESCALATION = {
  sandbox_permissions: {
    type: "string", enum: ["workspace-write", "danger-full-access"],
    description: "The wider sandbox mode this file operation needs. Only valid as a one-shot retry of an operation the sandbox just denied; requires justification and user approval.",
  },
  justification: {
    type: "string",
    description: "Required with sandbox_permissions: one sentence for the user explaining why this exact file operation needs the wider access.",
  },
};

async function listAndCheck(c, client, names, confined) {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  c.eq("tools/list names", tools.map((t) => t.name).sort(), names);
  for (const name of ["read", "write", "edit"]) {
    const t = byName[name];
    if (!c.ok(`tools/list has ${name}`, t !== undefined)) continue;
    const want = confined && name !== "read"
      ? { ...SCHEMAS[name], properties: { ...SCHEMAS[name].properties, ...ESCALATION } }
      : SCHEMAS[name];
    c.eq(`${name} inputSchema`, t.inputSchema, want);
  }
  c.eq("read annotations.readOnlyHint", byName.read?.annotations?.readOnlyHint, true);
  c.eq("write annotations.destructiveHint", byName.write?.annotations?.destructiveHint, true);
  c.eq("edit annotations.destructiveHint", byName.edit?.annotations?.destructiveHint, true);
}

/** guardedFlow runs the default composition: read-before-write and stale detection are enforced. */
async function guardedFlow(c, bin) {
  const dir = tempDir("cordon-flow-");
  const file = join(dir, "notes.txt");
  writeFileSync(file, "hello\nworld\n");
  const { client, transport, stderr } = await connect(bin, ["serve", "--cwd", dir]);
  try {
    c.ok("server instructions carry the read guidance", (client.getInstructions() ?? "").includes(READ_GUIDANCE),
      JSON.stringify(client.getInstructions()));
    await listAndCheck(c, client, ["apply_patch", "edit", "glob", "grep", "notebook_edit", "read", "read_image", "undo", "write"], true);

    let r = await client.callTool({ name: "write", arguments: { file_path: "notes.txt", content: "clobber\n" } });
    c.eq("unread overwrite isError", r.isError, true);
    c.eq("unread overwrite text", textOf(r),
      `Error: cannot modify "${file}": file has not been read — read the file, then retry`);
    c.eq("unread overwrite _meta.error", errorOf(r), { name: "FsError", code: "FS_NOT_OBSERVED" });
    c.eq("unread overwrite left the file", readFileSync(file, "utf8"), "hello\nworld\n");

    r = await client.callTool({ name: "read", arguments: { file_path: "notes.txt" } });
    c.ok("read ok", !r.isError, textOf(r));
    c.eq("read text", textOf(r), envelope(file, "1: hello\n2: world\n\n" + endOf(2)));
    c.eq("read carries no structuredContent", r.structuredContent, undefined);

    r = await client.callTool({ name: "write", arguments: { file_path: "notes.txt", content: "one\ntwo\nthree\n" } });
    c.ok("write ok", !r.isError, textOf(r));
    c.eq("write text", textOf(r), written(file, 3, 2));
    c.eq("write on disk", readFileSync(file, "utf8"), "one\ntwo\nthree\n");

    r = await client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "two", new_string: "TWO" } });
    c.ok("edit ok", !r.isError, textOf(r));
    c.eq("edit text", textOf(r), edited(file));
    c.eq("edit carries no structuredContent", r.structuredContent, undefined);
    c.eq("edit on disk", readFileSync(file, "utf8"), "one\nTWO\nthree\n");
    if (process.env.XDG_STATE_HOME) {
      // The server inherits this process's environment (connect): its history is under the state
      // directory e2e/run.sh made, not under the caller's home.
      c.ok("the edit's history is in this run's state directory",
        existsSync(join(process.env.XDG_STATE_HOME, "cordon", "history")), process.env.XDG_STATE_HOME);
    }

    writeFileSync(file, "one\nTWO\nthree\nfour (external)\n");
    r = await client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "one", new_string: "ONE" } });
    c.eq("stale edit isError", r.isError, true);
    c.eq("stale edit text", textOf(r),
      `Error: cannot edit "${file}": file changed since it was read — re-read the file, then retry\n` +
      "What changed since the read (- as read, + now):\n@@ -2,2 +2,3 @@\n TWO\n three\n+four (external)\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.");
    c.eq("stale edit _meta.error", errorOf(r), { name: "FsError", code: "FS_STALE_VERSION" });
    c.eq("stale edit left the file", readFileSync(file, "utf8"), "one\nTWO\nthree\nfour (external)\n");

    r = await client.callTool({ name: "read", arguments: { file_path: "notes.txt", offset: 4 } });
    c.eq("re-read text", textOf(r), envelope(file, "4: four (external)\n\n" + endOf(4)));
    r = await client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "one", new_string: "ONE" } });
    c.ok("edit after re-read ok", !r.isError, textOf(r));

    // read_image through the default composition's attachment store: an MCP image block.
    writeFileSync(join(dir, "dot.png"), Buffer.from(PNG_1X1, "base64"));
    r = await client.callTool({ name: "read_image", arguments: { file_path: "dot.png" } });
    c.ok("read_image ok", !r.isError, textOf(r));
    c.eq("read_image blocks", r.content?.map((b) => b.type), ["text", "image"]);
    c.eq("read_image image block mimeType", r.content?.[1]?.mimeType, "image/png");
    c.ok("read_image image block data is base64 PNG", Buffer.from(r.content?.[1]?.data ?? "", "base64").subarray(1, 4).toString() === "PNG");
  } finally {
    await client.close();
  }
  c.ok("stderr has the ready line", /ready/.test(stderr()), stderr());
  void transport;
}

/** bareFlow runs a composition without fs-observation-policy: writes and edits are unconditional. */
async function bareFlow(c, bin) {
  const dir = tempDir("cordon-bare-");
  const file = join(dir, "notes.txt");
  writeFileSync(file, "hello\nworld\n");
  const config = join(dir, "bare.yaml");
  writeFileSync(config, [
    "plugins:",
    "  - name: fs-local",
    `    config: { cwd: ${JSON.stringify(dir)} }`,
    "  - name: tools",
    "  - name: tool-fs",
    "",
  ].join("\n"));
  const { client } = await connect(bin, ["serve", "--config", config]);
  try {
    await listAndCheck(c, client, ["edit", "read", "write"], false);
    let r = await client.callTool({ name: "write", arguments: { file_path: "notes.txt", content: "clobber\n" } });
    c.ok("bare: unread overwrite succeeds", !r.isError, textOf(r));
    c.eq("bare: unread overwrite text", textOf(r), written(file, 1, 2));
    c.eq("bare: on disk", readFileSync(file, "utf8"), "clobber\n");

    writeFileSync(file, "clobber\nexternal\n");
    r = await client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "external", new_string: "EXT" } });
    c.ok("bare: edit after external change succeeds", !r.isError, textOf(r));
    c.eq("bare: edit on disk", readFileSync(file, "utf8"), "clobber\nEXT\n");
  } finally {
    await client.close();
  }
}

/**
 * sandboxedFlow runs `--profile sandboxed`: a write outside the workspace is denied with the sandbox
 * marker, and its retry with sandbox_permissions is put to the user through MCP elicitation.
 */
async function sandboxedFlow(c, bin) {
  const ws = tempDir("cordon-flow-");
  const outside = realpathSync(mkdtempSync(join(homedir(), ".cordon-flow-outside-"))); // not under a temp root
  const target = join(outside, "granted.txt");
  const asked = [];
  const { client } = await connect(bin, ["serve", "--profile", "sandboxed", "--cwd", ws], {
    onElicit: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { decision: "allow-once" } };
    },
  });
  try {
    const { tools } = await client.listTools();
    const write = tools.find((t) => t.name === "write");
    c.eq("sandboxed: write advertises sandbox_permissions", write?.inputSchema?.properties?.sandbox_permissions?.enum,
      ["workspace-write", "danger-full-access"]);
    let r = await client.callTool({ name: "write", arguments: { file_path: "inside.txt", content: "in\n" } });
    c.ok("sandboxed: write inside the workspace", !r.isError, textOf(r));
    r = await client.callTool({ name: "write", arguments: { file_path: target, content: "x\n" } });
    c.eq("sandboxed: outside write denied", textOf(r), writeDenial(target, ws));
    c.eq("sandboxed: denial _meta.error", errorOf(r), { name: "FsError", code: "FS_SANDBOX_DENIED" });
    c.ok("sandboxed: nothing written outside", !existsSync(target));
    r = await client.callTool({ name: "write", arguments: { file_path: target, content: "x\n",
      sandbox_permissions: "danger-full-access", justification: "The user asked for this file." } });
    c.ok("sandboxed: escalated write granted through elicitation", !r.isError, textOf(r));
    c.eq("sandboxed: escalated write on disk", existsSync(target) ? readFileSync(target, "utf8") : null, "x\n");
    c.eq("sandboxed: one question asked", asked.length, 1);
    c.eq("sandboxed: the question shows what is approved", asked[0],
      `Allow the "write" tool call?\nPath: ${target}\nMode: danger-full-access (now workspace-write)\n` +
      `Justification: The user asked for this file.\nContent: 2 bytes, 1 line\n  | x`);
    c.ok("sandboxed: instructions end with the standing policies",
      (client.getInstructions() ?? "").endsWith(`\n\nCurrent file policy: workspace-write. Any available operation enforced by the file sandbox may modify files under the session workspace: ${JSON.stringify(ws)}. Some platform temporary areas may also be writable.\n\nApproval policy: ask. Operations that require approval may ask through the configured answerers; without an available answerer, the request fails closed.`),
      JSON.stringify(client.getInstructions()));
  } finally {
    await client.close();
  }
  // A user who declines is a rejection; a client without elicitation cannot be asked at all.
  const escalate = { file_path: join(outside, "refused.txt"), content: "x\n",
    sandbox_permissions: "danger-full-access", justification: "The user asked for this file." };
  for (const [label, options, want] of [
    ["declined", { onElicit: () => ({ action: "decline" }) }, 'Error: the user rejected escalating this operation to "danger-full-access"'],
    ["cancelled", { onElicit: () => ({ action: "cancel" }) }, 'Error: approval for escalating to "danger-full-access" was cancelled'],
    ["no elicitation", {}, 'Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available'],
  ]) {
    const { client: other } = await connect(bin, ["serve", "--profile", "sandboxed", "--cwd", ws], options);
    try {
      const r = await other.callTool({ name: "write", arguments: escalate });
      c.eq(`sandboxed: escalation ${label}`, textOf(r), want);
      c.ok(`sandboxed: nothing written when ${label}`, !existsSync(escalate.file_path));
    } finally {
      await other.close();
    }
  }
  rmSync(outside, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
}

const c = new Checker();
const bin = harnessBinary();
try {
  await guardedFlow(c, bin);
  await bareFlow(c, bin);
  await sandboxedFlow(c, bin);
} catch (err) {
  c.ok("flow ran to the end", false, err?.stack ?? String(err));
}
c.finish("e2e flow (TypeScript SDK)");
