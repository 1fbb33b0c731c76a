// http.mjs drives `harness serve --http` on loopback with the official MCP TypeScript SDK client
// (StreamableHTTPClientTransport): the stdio flow over HTTP (read, an unread overwrite refused, a stale
// edit refused, an edit), two sessions isolated from each other, a session ended by DELETE and one by
// --session-idle, 401 without
// a token, 403 for a foreign Host and a foreign Origin, 413 past --max-body, 503 past --max-sessions;
// then the sandboxed profile: escalations approved through elicitation over HTTP, and SIGTERM with a
// call waiting for its approval (answered, then exit 0). It exits non-zero on any mismatch.
//
// Usage: node e2e/http.mjs            (builds ./cmd/harness with go)
//        HARNESS=/path/to/harness node e2e/http.mjs

import { request } from "node:http";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Checker, connectHTTP, edited, endOf, envelope, harnessBinary, serveHTTP, tempDir, textOf } from "./lib.mjs";

const ALICE = "alice-e2e-token-0123456789abcdef";
const BOB = "bob-e2e-token-0123456789abcdefgh";
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });

const errorOf = (r) => r._meta?.error ?? null;

/** raw sends one request with node:http (which, unlike fetch, lets a test set Host) and reads it whole. */
function raw(url, { method = "POST", headers = {}, body = INITIALIZE } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { "Content-Type": "application/json",
      Accept: "application/json, text/event-stream", ...headers } }, (res) => {
      const parts = [];
      res.on("data", (b) => parts.push(b));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString() }));
    });
    req.on("error", reject);
    req.end(method === "POST" ? body : undefined);
  });
}

/** refusal runs an SDK step that must fail with an HTTP status and returns that status (or the error). */
async function refusal(step) {
  try {
    await step();
    return "no error";
  } catch (err) {
    return err?.code ?? String(err);
  }
}

/** guardedServer: the default composition behind tokens and the limits. */
async function guardedServer(c, bin) {
  const dir = tempDir("cordon-http-");
  const file = join(dir, "notes.txt");
  writeFileSync(file, "hello\nworld\n");
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, `# e2e\nalice:${ALICE}\nbob:${BOB}\n`, { mode: 0o600 });
  const srv = await serveHTTP(bin, ["--cwd", dir, "--token-file", tokens, "--max-body", "64KiB",
    "--max-sessions", "3", "--log-level", "debug"]);
  const sessions = [];
  const open = async (opts) => {
    const s = await connectHTTP(srv.url, opts);
    sessions.push(s);
    return s;
  };
  try {
    const health = await raw(new URL("/healthz", srv.url), { method: "GET" });
    c.eq("GET /healthz", [health.status, health.body], [200, "ok\n"]);

    // Authentication.
    let r = await raw(srv.url);
    c.eq("no token: 401", r.status, 401);
    c.ok("no token: WWW-Authenticate: Bearer", /^Bearer/.test(r.headers["www-authenticate"] ?? ""), JSON.stringify(r.headers));
    r = await raw(srv.url, { headers: { Authorization: "Bearer wrong-token-0123456789abcdef" } });
    c.eq("a wrong token: 401", r.status, 401);
    c.eq("SDK client without a token: 401", await refusal(() => connectHTTP(srv.url)), 401);

    // The stdio flow, over HTTP.
    const a = await open({ token: ALICE });
    const { tools } = await a.client.listTools();
    c.eq("tools/list names", tools.map((t) => t.name).sort(), ["apply_patch", "edit", "glob", "grep", "notebook_edit", "read", "read_image", "undo", "write"]);
    r = await a.client.callTool({ name: "write", arguments: { file_path: "notes.txt", content: "clobber\n" } });
    c.eq("unread overwrite text", textOf(r), `Error: cannot modify "${file}": file has not been read — read the file, then retry`);
    c.eq("unread overwrite _meta.error", errorOf(r), { name: "FsError", code: "FS_NOT_OBSERVED" });
    r = await a.client.callTool({ name: "read", arguments: { file_path: "notes.txt" } });
    c.eq("read text", textOf(r), envelope(file, "1: hello\n2: world\n\n" + endOf(2)));
    writeFileSync(file, "hello\nthere\n");
    r = await a.client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "hello", new_string: "HELLO" } });
    c.eq("stale edit text", textOf(r), `Error: cannot edit "${file}": file changed since it was read — re-read the file, then retry\n` +
      "What changed since the read (- as read, + now):\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\nThe lines shown with + count as read: an edit of them can be retried as they are now, without another read.");
    c.eq("stale edit _meta.error", errorOf(r), { name: "FsError", code: "FS_STALE_VERSION" });
    await a.client.callTool({ name: "read", arguments: { file_path: "notes.txt" } });
    r = await a.client.callTool({ name: "edit", arguments: { file_path: "notes.txt", old_string: "hello", new_string: "HELLO" } });
    c.eq("edit text", textOf(r), edited(file));
    c.eq("edit on disk", readFileSync(file, "utf8"), "HELLO\nthere\n");

    // Two sessions, even of one principal, are two agents.
    const b = await open({ token: ALICE });
    c.ok("two sessions have two ids", a.transport.sessionId && b.transport.sessionId && a.transport.sessionId !== b.transport.sessionId,
      `${a.transport.sessionId} ${b.transport.sessionId}`);
    r = await b.client.callTool({ name: "write", arguments: { file_path: "notes.txt", content: "b\n" } });
    c.eq("isolation: the other session's read does not authorize this write", errorOf(r), { name: "FsError", code: "FS_NOT_OBSERVED" });
    c.eq("isolation: the file is kept", readFileSync(file, "utf8"), "HELLO\nthere\n");

    // DNS rebinding and browsers.
    const port = new URL(srv.url).port;
    r = await raw(srv.url, { headers: { Authorization: `Bearer ${ALICE}`, Host: `evil.example:${port}` } });
    c.eq("a foreign Host: 403", r.status, 403);
    c.eq("SDK client with a foreign Origin: 403",
      await refusal(() => connectHTTP(srv.url, { token: ALICE, headers: { Origin: "https://evil.example" } })), 403);

    // The body limit: the call is refused whole, nothing is written, the session goes on.
    c.eq("a body past --max-body: 413", await refusal(() => a.client.callTool({ name: "write",
      arguments: { file_path: "notes.txt", content: "x".repeat(100 << 10) } })), 413);
    c.eq("413: the file is kept", readFileSync(file, "utf8"), "HELLO\nthere\n");
    r = await a.client.callTool({ name: "read", arguments: { file_path: "notes.txt", offset: 2 } });
    c.eq("413: the session still works", textOf(r), envelope(file, "2: there\n\n" + endOf(2)));

    // The session limit, and a session ended by DELETE freeing its place.
    const third = await open({ token: BOB });
    c.eq("past --max-sessions: 503", await refusal(() => connectHTTP(srv.url, { token: BOB })), 503);
    const ended = third.transport.sessionId;
    await third.transport.terminateSession();
    r = await raw(srv.url, { headers: { Authorization: `Bearer ${BOB}`, "Mcp-Session-Id": ended, "Mcp-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) });
    c.eq("a session ended by DELETE is gone: 404", r.status, 404);
    const fourth = await open({ token: BOB });
    c.ok("DELETE freed its place under --max-sessions", fourth.transport.sessionId !== undefined);
  } catch (err) {
    c.ok("guarded server flow ran to the end", false, err?.stack ?? String(err));
  } finally {
    for (const s of sessions) await s.client.close().catch(() => {});
  }
  c.eq("guarded server: SIGTERM exits 0", await srv.stop(), 0);
  const logs = srv.stderr();
  c.ok("the debug access log names the principals", logs.includes('"principal": "alice"') && logs.includes('"principal": "bob"'), logs);
  c.ok("no token in the logs", !logs.includes(ALICE) && !logs.includes(BOB));
  rmSync(dir, { recursive: true, force: true });
}

/** idleServer: a session idle past --session-idle is ended: its id is gone and its place is free. */
async function idleServer(c, bin) {
  const dir = tempDir("cordon-http-idle-");
  const srv = await serveHTTP(bin, ["--cwd", dir, "--session-idle", "300ms", "--max-sessions", "1"]);
  const sessions = [];
  try {
    const a = await connectHTTP(srv.url);
    sessions.push(a);
    c.eq("idle: a second session past --max-sessions 1: 503", await refusal(() => connectHTTP(srv.url)), 503);
    let b; // trying to open another session does not touch the idle one's timer
    for (let i = 0; i < 100 && !b; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      b = await connectHTTP(srv.url).catch(() => undefined);
    }
    if (b) sessions.push(b);
    c.ok("idle: its place under --max-sessions is freed", b?.transport.sessionId !== undefined);
    c.eq("idle: the idle session is gone: 404", await refusal(() => a.client.callTool({ name: "glob", arguments: { pattern: "*" } })), 404);
  } catch (err) {
    c.ok("idle server flow ran to the end", false, err?.stack ?? String(err));
  } finally {
    for (const s of sessions) await s.client.close().catch(() => {});
  }
  c.eq("idle server: SIGTERM exits 0", await srv.stop(), 0);
  rmSync(dir, { recursive: true, force: true });
}

/** sandboxedServer: escalations approved through elicitation over HTTP, and SIGTERM with one waiting. */
async function sandboxedServer(c, bin) {
  const ws = tempDir("cordon-http-ws-");
  const outside = realpathSync(mkdtempSync(join(homedir(), ".cordon-http-outside-"))); // not under a temp root
  const srv = await serveHTTP(bin, ["--profile", "sandboxed", "--cwd", ws]);
  const escalate = (name) => ({ name: "write", arguments: { file_path: join(outside, name), content: "x\n",
    sandbox_permissions: "danger-full-access", justification: "The user asked for this file." } });
  const sessions = [];
  try {
    const asked = [];
    const s = await connectHTTP(srv.url, { onElicit: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { decision: "allow-once" } };
    } });
    sessions.push(s);
    let r = await s.client.callTool({ name: "write", arguments: { file_path: join(outside, "granted.txt"), content: "x\n" } });
    c.eq("sandboxed: outside write denied", errorOf(r), { name: "FsError", code: "FS_SANDBOX_DENIED" });
    r = await s.client.callTool(escalate("granted.txt"));
    c.ok("sandboxed: escalated write granted through elicitation over HTTP", !r.isError, textOf(r));
    c.eq("sandboxed: escalated write on disk", existsSync(join(outside, "granted.txt")) ? readFileSync(join(outside, "granted.txt"), "utf8") : null, "x\n");
    c.eq("sandboxed: the question shows what is approved", asked, [`Allow the "write" tool call?\nPath: ${join(outside, "granted.txt")}\n` +
      `Mode: danger-full-access (now workspace-write)\nJustification: The user asked for this file.\nContent: 2 bytes, 1 line\n  | x`]);
    for (const [label, opts, want] of [
      ["declined", { onElicit: () => ({ action: "decline" }) }, 'Error: the user rejected escalating this operation to "danger-full-access"'],
      ["no elicitation", {}, 'Error: sandbox escalation to "danger-full-access" requires approval, but no approval channel is available'],
    ]) {
      const other = await connectHTTP(srv.url, opts);
      sessions.push(other);
      r = await other.client.callTool(escalate(`${label}.txt`));
      c.eq(`sandboxed: escalation ${label}`, textOf(r), want);
      c.ok(`sandboxed: nothing written when ${label}`, !existsSync(join(outside, `${label}.txt`)));
    }

    // SIGTERM while a call waits for its approval: new sessions are refused, the answer is still
    // taken, the call is answered, and the server exits 0.
    let answer;
    const answered = new Promise((resolve) => (answer = resolve));
    let onAsked;
    const waiting = new Promise((resolve) => (onAsked = resolve));
    const held = await connectHTTP(srv.url, { onElicit: () => {
      onAsked();
      return answered;
    } });
    sessions.push(held);
    const call = held.client.callTool(escalate("during-shutdown.txt"));
    await waiting;
    srv.proc.kill("SIGTERM");
    let late;
    for (let i = 0; i < 200; i++) {
      late = await raw(srv.url).catch((err) => ({ status: String(err) }));
      if (late.status === 503) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    c.eq("SIGTERM: a new session is refused while the call finishes", [late.status, late.body],
      [503, "Service Unavailable: the server is shutting down\n"]);
    answer({ action: "accept", content: { decision: "allow-once" } });
    r = await call;
    c.ok("SIGTERM: the call in flight is answered", !r.isError, textOf(r));
    c.ok("SIGTERM: the call's write happened", existsSync(join(outside, "during-shutdown.txt")));
  } catch (err) {
    c.ok("sandboxed server flow ran to the end", false, err?.stack ?? String(err));
  } finally {
    for (const s of sessions) await s.client.close().catch(() => {});
  }
  c.eq("sandboxed server: exit status after SIGTERM", await srv.exited, 0);
  rmSync(outside, { recursive: true, force: true });
  rmSync(ws, { recursive: true, force: true });
}

const c = new Checker();
const bin = harnessBinary();
try {
  await guardedServer(c, bin);
  await idleServer(c, bin);
  await sandboxedServer(c, bin);
} catch (err) {
  c.ok("http flow ran to the end", false, err?.stack ?? String(err));
}
c.finish("e2e over HTTP (TypeScript SDK, StreamableHTTPClientTransport)");
