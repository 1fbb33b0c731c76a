// tap.mjs records the MCP traffic between a client and `harness serve`, so the suite knows exactly
// what the server sent for each call (the result budget, for one, depends on the client's name).
// Over stdio the server runs under `sh -c 'tee IN | harness serve … | tee OUT'`; over HTTP a loopback
// proxy in front of `serve --http` copies every request and response body.

import { readFileSync } from "node:fs";
import { request, createServer } from "node:http";

/** stdioTap wraps a server command so that both directions are appended to inFile and outFile. */
export function stdioTap(command, args, inFile, outFile) {
  return {
    command: "/bin/sh",
    args: ["-c", 'i=$1; o=$2; shift 2; tee -a "$i" | "$@" | tee -a "$o"', "sh", inFile, outFile, command, ...args],
  };
}

/** stdioMessages reads the JSON-RPC messages a stdioTap recorded: {in: [...], out: [...]}. */
export function stdioMessages(inFile, outFile) {
  return { in: jsonLines(read(inFile)), out: jsonLines(read(outFile)) };
}

function read(f) {
  try {
    return readFileSync(f, "utf8");
  } catch {
    return "";
  }
}

function jsonLines(text) {
  return text.split("\n").flatMap((l) => parse(l.trim()));
}

function parse(s) {
  if (!s) return [];
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v : [v];
  } catch {
    return [];
  }
}

/**
 * httpTap starts a proxy on 127.0.0.1 in front of target (the server's /mcp URL) and resolves with
 * {url, messages(), stop()}: url is the proxy's /mcp, messages() the JSON-RPC messages seen so far.
 */
export function httpTap(target) {
  const t = new URL(target);
  const seen = { in: [], out: [] };
  const server = createServer((req, res) => {
    const body = [];
    req.on("data", (c) => body.push(c));
    req.on("end", () => {
      const buf = Buffer.concat(body);
      seen.in.push(...parse(buf.toString("utf8")));
      const headers = { ...req.headers, host: t.host };
      const up = request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        res.flushHeaders();
        const sse = /event-stream/.test(r.headers["content-type"] ?? "");
        let rest = "";
        r.on("data", (c) => {
          res.write(c);
          rest += c.toString("utf8");
          if (sse) {
            const events = rest.split("\n\n");
            rest = events.pop();
            for (const e of events) seen.out.push(...parse(e.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("\n").trim()));
          }
        });
        r.on("end", () => {
          if (!sse) seen.out.push(...parse(rest));
          res.end();
        });
      });
      res.on("close", () => up.destroy());
      up.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      up.end(buf);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}${t.pathname}`,
        messages: () => seen,
        stop: () => {
          server.closeAllConnections?.();
          return new Promise((r) => server.close(() => r()));
        },
      });
    });
  });
}

/**
 * toolCalls pairs each tools/call request with its response: [{name, arguments, result}] in the order
 * the client sent them (result null when no answer was seen).
 */
export function toolCalls({ in: sent, out: got }) {
  const byId = new Map();
  for (const m of got) if (m && m.id !== undefined && ("result" in m || "error" in m)) byId.set(JSON.stringify(m.id), m);
  return sent
    .filter((m) => m && m.method === "tools/call" && m.id !== undefined)
    .map((m) => ({ name: m.params?.name, arguments: m.params?.arguments ?? {}, result: byId.get(JSON.stringify(m.id))?.result ?? null }));
}
