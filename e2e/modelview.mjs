// modelview.mjs checks what the model is given, not what the wire carries: it drives `harness serve`
// with the official MCP TypeScript SDK client, takes every result through the two ways MCP clients
// turn a tool result into model input, and compares that input with the contract's text byte for byte.
//
// The two projections (the families of clients people run):
//
//   structuredFirst — Claude Code, Codex, opencode. When a result carries structuredContent the model
//     gets one text part, JSON.stringify(structuredContent), *instead of* the content blocks (text and
//     images are dropped); otherwise it gets the content blocks.
//   contentBlocks   — Claude Desktop, Cursor, VS Code. The model gets the content blocks: text parts
//     and image parts; structuredContent and _meta are not shown.
//
// Both must give the model the same thing for every tool and every error class, so by default
// `serve` sends no structuredContent and lists no outputSchema (a client that sees an output schema
// expects structuredContent). The last section shows why: with --structured-content the
// structuredFirst family loses the text. It also measures the wire: a read capped by the result budget
// carries its text once (response bytes within 1.2x of the text).
//
// Usage: node e2e/modelview.mjs        (builds ./cmd/harness with go)
//        HARNESS=/path/to/harness node e2e/modelview.mjs

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { capped, Checker, connect, edited, endOf, envelope, fsText, harnessBinary, showing, tempDir, texts, writeDenial, written } from "./lib.mjs";

const patchText = texts("plugins/toolapplypatch");
const searchText = texts("plugins/toolfssearch");
const undoText = texts("plugins/fshistory/history");
const notebookText = texts("plugins/toolnotebook");

/** blocks turns MCP content blocks into model input parts; other block kinds are marked, not shown. */
function blocks(content) {
  return (content ?? []).map((b) => {
    switch (b.type) {
      case "text":
        return { type: "text", text: b.text };
      case "image":
        return { type: "image", mimeType: b.mimeType, data: b.data };
      default:
        return { type: `unsupported:${b.type}` };
    }
  });
}

/** structuredFirst is the model input of Claude Code, Codex and opencode. */
export function structuredFirst(result) {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return [{ type: "text", text: JSON.stringify(result.structuredContent) }];
  }
  return blocks(result.content);
}

/** contentBlocks is the model input of Claude Desktop, Cursor and VS Code. */
export function contentBlocks(result) {
  return blocks(result.content);
}

const PROJECTIONS = { structuredFirst, contentBlocks };

/**
 * budgetWindow is the read of path (lines from lineOf(n), 1-based) under a result budget of budget
 * bytes (docs/tool-fs.md "The result budget"): the lines that fit with the capped footer after them.
 */
function budgetWindow(path, lineOf, total, budget) {
  const size = (s) => Buffer.byteLength(s);
  let used = size(envelope(path, "")) + 1; // the envelope and the blank line before the footer
  let n = 0;
  while (n < total) {
    const cost = size(`${n + 1}: ${lineOf(n + 1)}\n`);
    if (used + cost + size(capped(1, n + 1)) > budget) break;
    used += cost;
    n++;
  }
  const lines = Array.from({ length: n }, (_, i) => `${i + 1}: ${lineOf(i + 1)}`).join("\n");
  return envelope(path, `${lines}\n\n${capped(1, n)}`);
}
const text = (t) => [{ type: "text", text: t }];

// A 1x1 RGBA PNG (stored as is: a clean small PNG passes through the attachment store).
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/**
 * expectView checks one result: both projections give exactly want, the result carries no
 * structuredContent, isError is as given, and _meta.error is the coded error or absent.
 */
function expectView(c, label, r, { want, isError = false, error = null }) {
  for (const [name, project] of Object.entries(PROJECTIONS)) {
    c.eq(`${label} [${name}]`, project(r), want);
  }
  c.eq(`${label}: no structuredContent`, r.structuredContent, undefined);
  c.eq(`${label}: isError`, r.isError === true, isError);
  c.eq(`${label}: _meta.error`, r._meta?.error ?? null, error);
}

const fsError = (code) => ({ name: "FsError", code });

/**
 * bracket brackets a change's call: stamp(c, label, r) is the RFC 3339 time (UTC, to the second) that r's
 * text gives the change (docs/history.md), checked to fall between the window's opening and its close.
 */
function bracket() {
  const from = Math.floor(Date.now() / 1000) * 1000;
  let to = null;
  return {
    close: () => (to = Date.now()),
    stamp(c, label, r) {
      const at = / at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)[ .:]/.exec(r.content?.[0]?.text ?? "")?.[1] ?? "";
      const t = Date.parse(at);
      c.ok(`${label}: the time of the change undone (${at}) is when it was made`, t >= from && t <= to);
      return at;
    },
  };
}

/** notebookJSON is a one-cell notebook as nbformat writes it: a code cell with an image output. */
function notebookJSON(png, source) {
  return `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "code0001",
   "metadata": {},
   "outputs": [
    {
     "data": {
      "image/png": "${png}",
      "text/plain": [
       "<Figure size 1x1>"
      ]
     },
     "metadata": {},
     "output_type": "display_data"
    }
   ],
   "source": [
    "${source}"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`;
}

/** defaultProfile runs every tool and error class of the default composition. */
async function defaultProfile(c, bin) {
  const dir = tempDir("cordon-view-");
  const p = (name) => join(dir, name);
  writeFileSync(p("notes.txt"), "hello\nworld\n");
  writeFileSync(p("four.txt"), "one\ntwo\nthree\nfour");
  writeFileSync(p("crlf.txt"), "alpha\r\nbeta\r\n");
  writeFileSync(p("long.txt"), "x".repeat(2500) + "\nshort\n");
  writeFileSync(p("wide.txt"), Array.from({ length: 2000 }, () => "y".repeat(100)).join("\n") + "\n");
  writeFileSync(p("blob.bin"), Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x02, 0x00]));
  writeFileSync(p("twice.txt"), "same\nsame\n");
  writeFileSync(p("unread.txt"), "one\n");
  writeFileSync(p("dot.png"), PNG_1X1);
  writeFileSync(p("fake.png"), "not an image\n");
  writeFileSync(p("patch.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(p("undo.txt"), "first\nsecond\n");
  writeFileSync(p("outside.txt"), "mine\n");
  writeFileSync(p("group.txt"), "g\n");
  mkdirSync(p("sub"));

  const { client } = await connect(bin, ["serve", "--cwd", dir]);
  try {
    const { tools } = await client.listTools();
    for (const t of tools) c.eq(`${t.name}: no outputSchema by default`, t.outputSchema, undefined);
    const call = (name, args) => client.callTool({ name, arguments: args });

    // read: envelope, numbering, footers, truncation notices.
    expectView(c, "read", await call("read", { file_path: "notes.txt" }), {
      want: text(envelope(p("notes.txt"), "1: hello\n2: world\n\n" + endOf(2))),
    });
    expectView(c, "read window", await call("read", { file_path: "four.txt", offset: 2, limit: 2 }), {
      want: text(envelope(p("four.txt"), "2: two\n3: three\n\n" + showing(2, 3, 4))),
    });
    expectView(c, "read CRLF", await call("read", { file_path: "crlf.txt" }), {
      want: text(envelope(p("crlf.txt"), "1: alpha\n2: beta\n\n" + endOf(2))),
    });
    expectView(c, "read long line", await call("read", { file_path: "long.txt" }), {
      want: text(envelope(p("long.txt"),
        `1: ${"x".repeat(2000)}${fsText("read.line.truncated", { chars: 2000 })}\n2: short\n\n${endOf(2)}`)),
    });
    // 2,000 lines of 100 bytes: the result budget (36,000 bytes of text) stops the window first.
    const wide = budgetWindow(p("wide.txt"), () => "y".repeat(100), 2000, 36000);
    c.ok(`read capped: ${Buffer.byteLength(wide)} bytes of text, within the budget`, Buffer.byteLength(wide) <= 36000);
    expectView(c, "read capped", await call("read", { file_path: "wide.txt" }), { want: text(wide) });

    // read failures.
    expectView(c, "read missing", await call("read", { file_path: "missing.txt" }), {
      want: text(`Error: cannot read "${p("missing.txt")}": not found`), isError: true, error: fsError("FS_NOT_FOUND"),
    });
    expectView(c, "read out of range", await call("read", { file_path: "notes.txt", offset: 9 }), {
      want: text(`Error: offset 9 is out of range for "${p("notes.txt")}" (2 lines)`), isError: true,
      error: fsError("FS_NOT_FOUND"),
    });
    expectView(c, "read directory", await call("read", { file_path: "sub" }), {
      want: text(`Error: cannot read "${p("sub")}": not a regular file\n${fsText("read.next.directory", { quoted_path: JSON.stringify(p("sub")) })}`), isError: true,
      error: fsError("FS_NOT_REGULAR_FILE"),
    });
    expectView(c, "read binary", await call("read", { file_path: "blob.bin" }), {
      want: text(`Error: cannot read "${p("blob.bin")}": binary file\n${fsText("read.next.binary", { size: fsText("read.next.size", { bytes: 6 }), type: "application/octet-stream" })}`), isError: true, error: fsError("FS_NOT_TEXT"),
    });
    expectView(c, "read bad offset (argument error)", await call("read", { file_path: "notes.txt", offset: 0 }), {
      want: text(`Error: ${fsText("read.error.offset")}`), isError: true,
    });
    expectView(c, "read over the limit (argument error)", await call("read", { file_path: "notes.txt", limit: 2001 }), {
      want: text(`Error: ${fsText("read.error.limit_max", { max: 2000 })}`), isError: true,
    });
    expectView(c, "read schema violation", await call("read", { file_path: 5 }), {
      want: text('Error: invalid arguments: "file_path" must be a string'), isError: true,
      error: { name: "ToolArgsError", code: "INVALID_ARGS" },
    });
    expectView(c, "read blank path", await call("read", { file_path: "  " }), {
      want: text(`Error: ${fsText("read.error.blank_path")}`), isError: true,
    });

    // write: refusal before a read, create, update; the content is never echoed.
    expectView(c, "write unread", await call("write", { file_path: "twice.txt", content: "x\n" }), {
      want: text(`Error: cannot modify "${p("twice.txt")}": file has not been read — read the file, then retry`),
      isError: true, error: fsError("FS_NOT_OBSERVED"),
    });
    const big = "z".repeat(99) + "\n";
    const createdAt = bracket();
    expectView(c, "write create", await call("write", { file_path: "new.txt", content: big.repeat(1000) }), {
      want: text(written(p("new.txt"), 1000)),
    });
    createdAt.close();
    await call("read", { file_path: "notes.txt" });
    expectView(c, "write update", await call("write", { file_path: "notes.txt", content: "one\ntwo\nthree\n" }), {
      want: text(written(p("notes.txt"), 3, 2)),
    });
    expectView(c, "write missing content", await call("write", { file_path: "notes.txt" }), {
      want: text('Error: invalid arguments: missing required property "content"'), isError: true,
      error: { name: "ToolArgsError", code: "INVALID_ARGS" },
    });

    // edit: one sentence, never the file; every refusal.
    expectView(c, "edit", await call("edit", { file_path: "notes.txt", old_string: "two", new_string: "TWO" }), {
      want: text(edited(p("notes.txt"))),
    });
    await call("read", { file_path: "twice.txt" });
    expectView(c, "edit ambiguous", await call("edit", { file_path: "twice.txt", old_string: "same", new_string: "diff" }), {
      want: text(`Error: old_string matched 2 times in "${p("twice.txt")}"; provide a more specific old_string or set replace_all to true\n` +
        fsText("edit.next.matches_at.lines", { list: fsText("edit.next.matches_at.and", { list: 1, last: 2 }) })),
      isError: true, error: fsError("FS_AMBIGUOUS_EDIT"),
    });
    expectView(c, "edit replace_all",
      await call("edit", { file_path: "twice.txt", old_string: "same", new_string: "diff", replace_all: true }), {
        want: text(edited(p("twice.txt"), "\nReplaced 2 occurrences, at lines 1-2 of the file now.")),
      });
    expectView(c, "edit not found", await call("edit", { file_path: "notes.txt", old_string: "absent", new_string: "x" }), {
      want: text(`Error: old_string was not found in "${p("notes.txt")}"`), isError: true, error: fsError("FS_EDIT_NOT_FOUND"),
    });
    // read's "N: " prefixes pasted into both strings; then into new_string alone (the edit lands, and says so).
    expectView(c, "edit with read's prefixes in both strings", await call("edit", { file_path: "notes.txt", old_string: "2: TWO", new_string: "2: 2" }), {
      want: text(`Error: old_string was not found in "${p("notes.txt")}"\n${fsText("edit.next.prefixes.both", { prefix: "2: " })}\n` +
        fsText("edit.next.prefixes.found_once", { lines: "line 2" })),
      isError: true, error: fsError("FS_EDIT_NOT_FOUND"),
    });
    expectView(c, "edit with read's prefixes in new_string only", await call("edit", { file_path: "notes.txt", old_string: "TWO", new_string: "2: TWO" }), {
      want: text(edited(p("notes.txt")) + "\n" + fsText("edit.success.new_prefixes", { prefix: "2: " })),
    });
    await call("edit", { file_path: "notes.txt", old_string: "2: TWO", new_string: "TWO" }); // as it was (the stale diff below shows it)
    expectView(c, "edit same strings", await call("edit", { file_path: "notes.txt", old_string: "a", new_string: "a" }), {
      want: text(`Error: ${fsText("edit.error.same_strings")}`), isError: true,
    });
    expectView(c, "edit unread", await call("edit", { file_path: "unread.txt", old_string: "one", new_string: "1" }), {
      want: text(`Error: cannot modify "${p("unread.txt")}": file has not been read — read the file, then retry`),
      isError: true, error: fsError("FS_NOT_OBSERVED"),
    });
    writeFileSync(p("notes.txt"), "changed on disk\n");
    expectView(c, "edit stale", await call("edit", { file_path: "notes.txt", old_string: "changed", new_string: "x" }), {
      want: text(`Error: cannot edit "${p("notes.txt")}": file changed since it was read — re-read the file, then retry\n` +
        "What changed since the read (- as read, + now):\n@@ -1,3 +1,1 @@\n-one\n-TWO\n-three\n+changed on disk\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read."),
      isError: true, error: fsError("FS_STALE_VERSION"),
    });
    await call("read", { file_path: "gone.txt" }); // observes the file as absent
    expectView(c, "edit missing file", await call("edit", { file_path: "gone.txt", old_string: "a", new_string: "b" }), {
      want: text(`Error: cannot edit "${p("gone.txt")}": not found`), isError: true, error: fsError("FS_NOT_FOUND"),
    });

    // apply_patch (docs/apply_patch.md): Codex's summary on success, the chunk that did not match on failure.
    await call("read", { file_path: "patch.txt" });
    const patch = (body) => `*** Begin Patch\n${body}\n*** End Patch`;
    expectView(c, "apply_patch", await call("apply_patch", {
      input: patch("*** Add File: added.txt\n+new\n*** Update File: patch.txt\n@@\n alpha\n-beta\n+BETA\n gamma"),
    }), { want: text([patchText("apply_patch.success"), patchText("apply_patch.success.file", { op: "A", path: "added.txt" }),
      patchText("apply_patch.success.file", { op: "M", path: "patch.txt" })].join("\n")) });
    c.eq("apply_patch: the file is patched", readFileSync(p("patch.txt"), "utf8"), "alpha\nBETA\ngamma\n");
    expectView(c, "apply_patch context not found", await call("apply_patch", {
      input: patch("*** Update File: patch.txt\n@@\n no such line\n-BETA\n+beta"),
    }), {
      want: text([`Error: ${patchText("apply_patch.error.chunk", { quoted_path: JSON.stringify(p("patch.txt")), chunk: 1, chunks: 1, line: 3 })}`,
        patchText("apply_patch.error.chunk.expected"), "no such line", "BETA", patchText("apply_patch.error.chunk.retry")].join("\n")),
      isError: true, error: fsError("FS_EDIT_NOT_FOUND"),
    });
    c.eq("apply_patch failure: nothing changed", readFileSync(p("patch.txt"), "utf8"), "alpha\nBETA\ngamma\n");

    // undo (docs/history.md): the restored file, the tool and the time of the change undone.
    await call("read", { file_path: "undo.txt" });
    const editedAt = bracket();
    await call("edit", { file_path: "undo.txt", old_string: "second", new_string: "2nd" });
    editedAt.close();
    const undone = await call("undo", { file_path: "undo.txt" });
    expectView(c, "undo of an edit", undone, {
      want: text(undoText("undo.success", { path: p("undo.txt"), tool: "edit", time: editedAt.stamp(c, "undo of an edit", undone) }) +
        "\n" + undoText("undo.next.none")),
    });
    c.eq("undo of an edit: the bytes before it", readFileSync(p("undo.txt"), "utf8"), "first\nsecond\n");
    const undoneWrite = await call("undo", { file_path: "new.txt" });
    expectView(c, "undo of a creation", undoneWrite, {
      want: text(undoText("undo.success.removed", { path: p("new.txt"), tool: "write", time: createdAt.stamp(c, "undo of a creation", undoneWrite) }) +
        "\n" + undoText("undo.next.none")),
    });
    c.eq("undo of a creation: the file is gone", existsSync(p("new.txt")), false);
    expectView(c, "undo with nothing to undo", await call("undo", { file_path: "unread.txt" }), {
      want: text(`Error: ${undoText("undo.error.none", { path: p("unread.txt") })}`),
      isError: true, error: fsError("FS_NOT_FOUND"),
    });
    await call("read", { file_path: "outside.txt" });
    const outsideAt = bracket();
    await call("edit", { file_path: "outside.txt", old_string: "mine", new_string: "ours" });
    outsideAt.close();
    writeFileSync(p("outside.txt"), "theirs\n");
    const refused = await call("undo", { file_path: "outside.txt" });
    const change = /\(change (c\d+)\)/.exec(refused.content?.[0]?.text ?? "")?.[1];
    c.ok("undo over an outside change names the change", change !== undefined, JSON.stringify(refused.content));
    expectView(c, "undo over an outside change", refused, {
      want: text(`Error: ${undoText("undo.error.outside", { path: p("outside.txt"), what: undoText("undo.outside.changed"), tool: "edit",
        time: outsideAt.stamp(c, "undo over an outside change", refused), change })}`),
      isError: true, error: fsError("FS_STALE_VERSION"),
    });
    c.eq("undo over an outside change: nothing restored", readFileSync(p("outside.txt"), "utf8"), "theirs\n");

    // undo of one file of a multi-file apply_patch (docs/history.md "The undo tool"): the folders its
    // creation made go once empty, and the patch's other files are named, then named as undone.
    await call("read", { file_path: "group.txt" });
    const patchedAt = bracket();
    await call("apply_patch", { input: patch("*** Add File: pkg/x/made.txt\n+made\n*** Update File: group.txt\n@@\n-g\n+G") });
    patchedAt.close();
    const undoneAdd = await call("undo", { file_path: "pkg/x/made.txt" });
    expectView(c, "undo of one file of a patch", undoneAdd, {
      want: text(`Restored "${p("pkg/x/made.txt")}" to its state before the apply_patch at ${patchedAt.stamp(c, "undo of one file of a patch", undoneAdd)}: it did not exist, so it was removed.\n` +
        `It also removed the folders that apply_patch created for it, now empty: "${p("pkg/x")}", "${p("pkg")}".\n` +
        `The same apply_patch also changed "${p("group.txt")}", which this undo left as it is: undo it by its file_path to take the whole apply_patch back.\n` +
        "The history holds no earlier change by this session to it."),
    });
    c.eq("undo of one file of a patch: the folders it made are gone", existsSync(p("pkg")), false);
    const undoneUpdate = await call("undo", { file_path: "group.txt" });
    expectView(c, "undo of a patch's last file", undoneUpdate, {
      want: text(`Restored "${p("group.txt")}" to its state before the apply_patch at ${patchedAt.stamp(c, "undo of a patch's last file", undoneUpdate)}.\n` +
        `The other files of the same apply_patch were undone already: "${p("pkg/x/made.txt")}".\n` +
        "The history holds no earlier change by this session to it."),
    });
    c.eq("undo of a patch's last file: its bytes before", readFileSync(p("group.txt"), "utf8"), "g\n");

    // read_image: a text part and an image part, in that order, for both families.
    const img = await call("read_image", { file_path: "dot.png" });
    expectView(c, "read_image", img, {
      want: [
        { type: "text", text: fsText("read_image.envelope", { path: p("dot.png"),
          body: fsText("read_image.image", { media_type: "image/png", width: 1, height: 1, bytes: PNG_1X1.length }) }) },
        { type: "image", mimeType: "image/png", data: PNG_1X1.toString("base64") },
      ],
    });
    expectView(c, "read_image of text", await call("read_image", { file_path: "fake.png" }), {
      want: text(`Error: ${fsText("read_image.error", { path: p("fake.png"), reason: fsText("read_image.error.invalid.fault", {
        fault: "the bytes carry no PNG, JPEG, WebP or GIF signature, so they are not an image in one of those formats; convert the image to PNG or JPEG and retry" }) })}`), isError: true,
      error: { name: "AttachmentError", code: "INVALID_IMAGE" },
    });
    expectView(c, "read_image of a non-image extension", await call("read_image", { file_path: "notes.txt" }), {
      want: text(`Error: cannot read "notes.txt": the .txt extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`),
      isError: true,
    });

    // A notebook (docs/notebooks.md): read shows its cells and the output's image as an image part;
    // notebook_edit replaces a cell's source and writes the cell as nbformat does.
    const nb = notebookJSON(PNG_1X1.toString("base64"), "plot(1)");
    writeFileSync(p("nb.ipynb"), nb);
    expectView(c, "read of a notebook", await call("read", { file_path: "nb.ipynb" }), {
      want: [
        { type: "text", text: fsText("read.notebook.envelope", { path: p("nb.ipynb"), format: fsText("read.notebook.format", { format: "4.5" }),
          body: `<cell id="code0001" type="code" execution_count="1">\n1: plot(1)\n<output type="display_data">\n` +
            `[image 1 of this result: image/png, 1x1 px]\n<Figure size 1x1>\n</output>\n</cell>\n\n${fsText("read.notebook.footer.end", { total: 1 })}` }) },
        { type: "image", mimeType: "image/png", data: PNG_1X1.toString("base64") },
      ],
    });
    expectView(c, "notebook_edit", await call("notebook_edit", { notebook_path: "nb.ipynb", cell_id: "code0001", new_source: "plot(2)" }), {
      want: text(notebookText("notebook_edit.updated", { type: "code", cell: "code0001", path: p("nb.ipynb") }) + "\n-plot(1)\n+plot(2)\n" +
        notebookText("notebook_edit.kept_outputs", { n: 1 })),
    });
    c.eq("notebook_edit: nbformat's bytes", readFileSync(p("nb.ipynb"), "utf8"), notebookJSON(PNG_1X1.toString("base64"), "plot(2)"));
  } finally {
    await client.close();
  }
  // A client that names itself "claude-code" in clientInfo gets its wider budget (48,000 bytes).
  const cc = await connect(bin, ["serve", "--cwd", dir], { name: "claude-code" });
  try {
    const r = await cc.client.callTool({ name: "read", arguments: { file_path: "wide.txt" } });
    expectView(c, "read capped for claude-code", r, { want: text(budgetWindow(p("wide.txt"), () => "y".repeat(100), 2000, 48000)) });
  } finally {
    await cc.client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** search checks glob and grep: their outputs and every error class. */
async function search(c, bin) {
  const dir = tempDir("cordon-view-search-");
  const put = (name, body, mtime) => {
    writeFileSync(join(dir, name), body);
    utimesSync(join(dir, name), mtime, mtime);
  };
  mkdirSync(join(dir, "pkg"));
  put("a.go", "const x = 1\nvar y\nconst z = 3\n", 1_700_000_000);
  put("pkg/b.go", "const q\n", 1_700_000_100); // newest first
  put(".gitignore", "ignored.go\n", 1_700_000_000);
  put("ignored.go", "const ignored\n", 1_700_000_200);
  mkdirSync(join(dir, ".git"));
  const { client } = await connect(bin, ["serve", "--cwd", dir]);
  try {
    const call = (name, args) => client.callTool({ name, arguments: args });
    expectView(c, "glob", await call("glob", { pattern: "*.go" }), { want: text("pkg/b.go\na.go") });
    expectView(c, "glob no match", await call("glob", { pattern: "*.rs" }), { want: text(searchText("glob.none")) });
    expectView(c, "grep", await call("grep", { pattern: "const" }), {
      want: text(searchText("grep.found.many", { n: 3 }) + "\n\npkg/b.go\nLine 1: const q\n\na.go\nLine 1: const x = 1\nLine 3: const z = 3"),
    });
    expectView(c, "grep one match", await call("grep", { pattern: "var y" }), { want: text(searchText("grep.found.one") + "\n\na.go\nLine 2: var y") });
    expectView(c, "grep no match", await call("grep", { pattern: "nothing here" }), { want: text(searchText("grep.none")) });
    expectView(c, "grep blank pattern (argument error)", await call("grep", { pattern: "" }), {
      want: text(`Error: ${searchText("search.error.blank_pattern")}`), isError: true,
    });
    expectView(c, "grep bad regexp", await call("grep", { pattern: "(" }), {
      want: text(`Error: ${searchText("search.error.invalid_pattern", { tool: "grep", reason: "error parsing regexp: missing closing ): `(`" })}`), isError: true,
      error: { name: "SearchError", code: "SEARCH_INVALID_PATTERN" },
    });
    expectView(c, "glob of a file", await call("glob", { pattern: "*.go", path: "a.go" }), {
      want: text(`Error: ${searchText("search.error.not_directory", { path: "a.go" })}`), isError: true, error: fsError("FS_NOT_DIRECTORY"),
    });
    expectView(c, "grep of a missing path", await call("grep", { pattern: "x", path: "nope" }), {
      want: text(`Error: ${searchText("search.error.not_found", { path: "nope" })}`), isError: true, error: fsError("FS_NOT_FOUND"),
    });
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** sandboxedProfile checks the sandbox's denial and an escalation's refusal as the model sees them. */
async function sandboxedProfile(c, bin) {
  const ws = tempDir("cordon-view-ws-");
  const outside = realpathSync(mkdtempSync(join(homedir(), ".cordon-view-outside-")));
  const { client } = await connect(bin, ["serve", "--profile", "sandboxed", "--cwd", ws], {
    onElicit: () => ({ action: "decline" }),
  });
  try {
    const target = join(outside, "x.txt");
    expectView(c, "sandbox denial", await client.callTool({ name: "write", arguments: { file_path: target, content: "x\n" } }), {
      want: text(writeDenial(target, ws)),
      isError: true, error: fsError("FS_SANDBOX_DENIED"),
    });
    const r = await client.callTool({ name: "write", arguments: { file_path: target, content: "x\n",
      sandbox_permissions: "danger-full-access", justification: "The user asked for it." } });
    for (const [name, project] of Object.entries(PROJECTIONS)) {
      c.eq(`escalation declined [${name}]`, project(r), text('Error: the user rejected escalating this operation to "danger-full-access"'));
    }
    c.eq("escalation declined: no structuredContent", r.structuredContent, undefined);
  } finally {
    await client.close();
    rmSync(outside, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
  }
}

/**
 * structuredOptIn shows what --structured-content costs the structuredFirst family: the model gets the
 * canonical JSON instead of the envelope, the footer and the image. Programmatic clients that read
 * structuredContent are what the option is for.
 */
async function structuredOptIn(c, bin) {
  const dir = tempDir("cordon-view-sc-");
  writeFileSync(join(dir, "notes.txt"), "hello\nworld\n");
  writeFileSync(join(dir, "dot.png"), PNG_1X1);
  const { client } = await connect(bin, ["serve", "--cwd", dir, "--structured-content"]);
  try {
    const { tools } = await client.listTools();
    c.ok("--structured-content lists output schemas", tools.every((t) => t.outputSchema?.type === "object"));
    const file = join(dir, "notes.txt");
    const r = await client.callTool({ name: "read", arguments: { file_path: "notes.txt" } });
    const value = { path: file, offset: 1, lines: [{ number: 1, text: "hello" }, { number: 2, text: "world" }], totalLines: 2 };
    c.eq("--structured-content: structuredContent is the canonical value", r.structuredContent, value);
    c.eq("--structured-content: contentBlocks still get the text", contentBlocks(r),
      text(envelope(file, "1: hello\n2: world\n\n" + endOf(2))));
    c.eq("--structured-content: structuredFirst gets JSON, not the text", structuredFirst(r), text(JSON.stringify(value)));
    const img = await client.callTool({ name: "read_image", arguments: { file_path: "dot.png" } });
    c.ok("--structured-content: structuredFirst loses the image", structuredFirst(img).every((b) => b.type === "text"));
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * rawExchange speaks JSON-RPC over the pipe directly (no SDK) so the response bytes are the wire's:
 * it returns the length in bytes of each response line, keyed by request id, and the parsed results.
 */
async function rawExchange(bin, cwd, calls) {
  const child = spawn(bin, ["serve", "--cwd", cwd, "--log-level", "error"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const pending = new Map();
  lines.on("line", (line) => {
    const msg = JSON.parse(line);
    pending.get(msg.id)?.({ bytes: Buffer.byteLength(line) + 1, msg });
  });
  const send = (msg) => new Promise((resolve) => {
    if (msg.id !== undefined) pending.set(msg.id, resolve);
    child.stdin.write(JSON.stringify(msg) + "\n");
    if (msg.id === undefined) resolve(null);
  });
  await send({ jsonrpc: "2.0", id: 0, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "wire", version: "0" } } });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const out = [];
  for (const [i, [name, args]] of calls.entries()) {
    out.push(await send({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name, arguments: args } }));
  }
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  return out;
}

/** wire checks that results carry the model-facing text once, and nothing of the file besides. */
async function wire(c, bin) {
  const dir = tempDir("cordon-view-wire-");
  const file = join(dir, "big.txt");
  writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `line ${String(i + 1).padStart(5, "0")} abcdefghij`).join("\n") + "\n");
  const content = "w".repeat(99) + "\n";
  const [read, edit, write] = await rawExchange(bin, dir, [
    ["read", { file_path: "big.txt" }],
    ["edit", { file_path: "big.txt", old_string: "line 01000 abcdefghij", new_string: "line 01000 ABCDEFGHIJ" }],
    ["write", { file_path: "fresh.txt", content: content.repeat(1000) }],
  ]);
  const readText = read.msg.result.content[0].text;
  const shown = readText.match(/^\d+: /gm)?.length ?? 0;
  c.ok("wire: the read is the window the budget allows", readText.endsWith(`\n\n${capped(1, shown)}\n</content>`) &&
    Buffer.byteLength(readText) <= 36000, readText.slice(-120));
  const ratio = read.bytes / Buffer.byteLength(readText);
  console.log(`wire: read ${read.bytes} B for ${Buffer.byteLength(readText)} B of text (${ratio.toFixed(3)}x); edit ${edit.bytes} B; write of 100 KB ${write.bytes} B`);
  c.ok(`wire: read response ${read.bytes} B for ${Buffer.byteLength(readText)} B of text (ratio ${ratio.toFixed(3)} <= 1.2)`, ratio <= 1.2);
  c.ok(`wire: edit response ${edit.bytes} B (the sentence, not the file)`, edit.bytes < 512, JSON.stringify(edit.msg));
  c.ok(`wire: write response ${write.bytes} B (not the 100 KB content)`, write.bytes < 512, JSON.stringify(write.msg));
  c.eq("wire: edit applied", readFileSync(file, "utf8").includes("line 01000 ABCDEFGHIJ\n"), true);
  rmSync(dir, { recursive: true, force: true });
}

/** onPath reports whether program is a file in a directory of PATH. */
function onPath(program) {
  return (process.env.PATH ?? "").split(":").some((d) => d !== "" && existsSync(join(d, program)));
}

/**
 * diagnostics: an edit that breaks a Go file gives the model the tool's own text, then the problem the
 * change introduced, from gopls (docs/diagnostics.md "What the model sees"). Without gopls on PATH the
 * section is skipped, unless CI is set (scripts/install-language-servers installs it).
 */
async function diagnostics(c, bin) {
  if (!onPath("gopls")) {
    if (process.env.CI) c.ok("diagnostics: gopls is on PATH", false);
    else console.log("model view: diagnostics SKIPPED: gopls not on PATH");
    return;
  }
  const dir = tempDir("cordon-view-diag-");
  const p = (name) => join(dir, name);
  writeFileSync(p("go.mod"), "module example.com/view\n\ngo 1.22\n");
  writeFileSync(p("a.go"), "package view\n\nvar Old int = \"old\"\n\nfunc F(x int) int { return x }\n");
  const { client } = await connect(bin, ["serve", "--cwd", dir]);
  try {
    const call = (name, args) => client.callTool({ name, arguments: args });
    await call("read", { file_path: "a.go" });
    expectView(c, "edit that introduces a type error", await call("edit", { file_path: "a.go", old_string: "func F", new_string: "var New string = F(1)\n\nfunc F" }), {
      want: [
        { type: "text", text: edited(p("a.go")) },
        { type: "text", text: `Diagnostics (gopls) of ${p("a.go")}: 1 new problem from this change (1 error, 0 warnings):\n` +
          `${p("a.go")}:5:18: cannot use F(1) (value of type int) as string value in variable declaration (compiler)` },
      ],
    });
    expectView(c, "edit that fixes it", await call("edit", { file_path: "a.go", old_string: "var New string = F(1)\n\n", new_string: "" }), {
      want: [
        { type: "text", text: edited(p("a.go")) },
        { type: "text", text: `Diagnostics (gopls) of ${p("a.go")}: no new problems from this change.\nFixed by this change: 1 problem.` },
      ],
    });
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const c = new Checker();
const bin = harnessBinary();
try {
  await defaultProfile(c, bin);
  await search(c, bin);
  await sandboxedProfile(c, bin);
  await structuredOptIn(c, bin);
  await wire(c, bin);
  await diagnostics(c, bin);
} catch (err) {
  c.ok("model view ran to the end", false, err?.stack ?? String(err));
}
c.finish("e2e model view (TypeScript SDK, two client projections)");
