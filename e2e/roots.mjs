// roots.mjs drives `harness serve` started without --cwd with the official MCP TypeScript SDK client
// declaring the roots capability (docs/host.md "Roots from the client"): the workspace is the client's
// root; after notifications/roots/list_changed it is the new root; at each step the files inside are
// served and everything else (the other root, the directory the server was started in) is refused.
// Then `serve --cwd` with the same client: the explicit workspace wins. It exits non-zero on any mismatch.
//
// Usage: node e2e/roots.mjs            (builds ./cmd/harness with go)
//        HARNESS=/path/to/harness node e2e/roots.mjs

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Checker, harnessBinary, tempDir, textOf } from "./lib.mjs";

const bin = harnessBinary();
const check = new Checker();
const base = tempDir("cordon-e2e-roots-");
const dirs = Object.fromEntries(["wd", "a", "b"].map((n) => [n, join(base, n)]));
for (const [name, dir] of Object.entries(dirs)) {
  mkdirSync(dir);
  writeFileSync(join(dir, "f.txt"), `in ${name}\n`);
}

/** connectWithRoots spawns harness serve args in cwd with a client whose roots are roots(). */
async function connectWithRoots(args, cwd, roots) {
  const transport = new StdioClientTransport({ command: bin, args: ["serve", ...args], cwd, env: process.env, stderr: "pipe" });
  const stderr = [];
  transport.stderr?.on("data", (b) => stderr.push(String(b)));
  const client = new Client({ name: "cordon-e2e-roots", version: "0.0.0" }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots().map((d) => ({ uri: pathToFileURL(d).href, name: d })) }));
  await client.connect(transport);
  return { client, stderr: () => stderr.join("") };
}

async function read(client, path) {
  const res = await client.callTool({ name: "read", arguments: { file_path: path } });
  return { failed: res.isError === true, text: textOf(res) };
}

async function served(client, label, path, want) {
  const r = await read(client, path);
  check.ok(`${label}: ${path} is served`, !r.failed && r.text.includes(want), r.text);
}

async function refused(client, label, path) {
  const r = await read(client, path);
  check.ok(`${label}: ${path} is refused`, r.failed && r.text.includes("it is outside the workspace roots"), r.text);
}

try {
  let roots = [dirs.a];
  const { client, stderr } = await connectWithRoots(["--log-level", "info"], dirs.wd, () => roots);
  await served(client, "root a", "f.txt", "in a");
  await served(client, "root a", join(dirs.a, "f.txt"), "in a");
  await refused(client, "root a", join(dirs.b, "f.txt"));
  await refused(client, "root a", join(dirs.wd, "f.txt"));
  const w = await client.callTool({ name: "write", arguments: { file_path: join(dirs.b, "x.txt"), content: "x\n" } });
  check.ok("root a: a write in b is refused", w.isError === true && !existsSync(join(dirs.b, "x.txt")), textOf(w));

  roots = [dirs.b];
  await client.sendRootsListChanged();
  let moved = false;
  for (let i = 0; i < 100 && !moved; i++) {
    moved = !(await read(client, join(dirs.b, "f.txt"))).failed;
    if (!moved) await new Promise((r) => setTimeout(r, 50));
  }
  check.ok("list_changed: the workspace follows the new root", moved, stderr());
  await served(client, "root b", "f.txt", "in b");
  await refused(client, "root b", join(dirs.a, "f.txt"));
  await refused(client, "root b", join(dirs.wd, "f.txt"));
  check.ok("the roots taken are logged", stderr().includes("workspace roots from the client"), stderr());
  await client.close();

  const pinned = await connectWithRoots(["--cwd", dirs.wd], dirs.a, () => [dirs.a]);
  await served(pinned.client, "--cwd", "f.txt", "in wd");
  await refused(pinned.client, "--cwd", join(dirs.a, "f.txt"));
  await pinned.client.close();
} catch (err) {
  check.ok("roots flow ran", false, String(err?.stack ?? err));
} finally {
  rmSync(base, { recursive: true, force: true });
}
check.finish("roots");
