// replay.mjs is an MCP stdio server that does no work: it answers initialize, tools/list and
// tools/call with results recorded from `harness serve` (a JSON file: {tools, results: {name: result}}),
// pre-encoded once. Driving it with the benchmark's client measures the client-side ceiling: the most
// calls/s any server returning Cordon's exact responses could reach with that client.
//
// Usage: node e2e/replay.mjs recorded.json
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const recorded = JSON.parse(readFileSync(process.argv[2], "utf8"));
// Results are kept as UTF-8 bytes with their closing "}\n", so a reply costs one small string and a
// two-buffer write: the ceiling then measures the client, not this server.
const tail = (json) => Buffer.from(`${json}}\n`);
const encoded = new Map(Object.entries(recorded.results).map(([name, r]) => [name, tail(JSON.stringify(r))]));
const toolsList = tail(JSON.stringify({ tools: recorded.tools }));

const reply = (id, result) => {
  process.stdout.cork();
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`);
  process.stdout.write(typeof result === "string" ? tail(result) : result);
  process.stdout.uncork();
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  if (msg.id === undefined) continue; // notifications
  switch (msg.method) {
    case "initialize":
      reply(msg.id, JSON.stringify({
        protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "replay", version: "0" },
      }));
      break;
    case "tools/list":
      reply(msg.id, toolsList);
      break;
    case "tools/call":
      reply(msg.id, encoded.get(msg.params.name) ?? JSON.stringify({ isError: true, content: [{ type: "text", text: "unknown" }] }));
      break;
    default:
      reply(msg.id, "{}");
  }
}
