// script.mjs turns the scenario into the mock model's turns: on each turn of the agent loop it counts
// the tool results the client has sent back so far, records the newest one as what the model got for
// the previous step, and asks for the next step's tool under the name the client gave it.

import { toolResults } from "./results.mjs";

/**
 * toolName finds the client's name for an MCP tool of the "cordon" server among the offered names:
 * exactly the tool's name, or the name after a separator ("mcp__cordon__read", "cordon__read",
 * "mcp_cordon_read", "cordon_read"), preferring names that carry the server's name.
 */
export function toolName(offered, tool) {
  const hits = offered.filter((n) => n === tool || ["_", ".", "/"].some((sep) => n.endsWith(`${sep}${tool}`)));
  return hits.find((n) => /cordon/i.test(n)) ?? hits.find((n) => n === tool) ?? null;
}

/**
 * stepScript returns {script, record}: script is the mock's callback; record[i] is what came back for
 * steps[i] ({turn, result, body}); names maps each tool to the client's name for it.
 */
export function stepScript(wire, steps, dir, { closing = "done" } = {}) {
  const record = [];
  const names = {};
  const ran = new Set();
  const script = async (turn) => {
    const results = toolResults(wire, turn.body);
    const k = results.length;
    if (k > 0 && k <= steps.length) record[k - 1] = { turn: turn.index, result: results[k - 1], body: turn.body, at: turn.at };
    if (k >= steps.length) return { text: closing };
    const s = steps[k];
    const name = toolName(turn.tools, s.tool);
    names[s.tool] = name;
    if (!name) return { text: `mock: the client offers no cordon ${s.tool} tool` };
    if (s.before && !ran.has(k)) {
      ran.add(k);
      await s.before(dir);
    }
    return { tool: name, args: s.args };
  };
  return { script, record, names };
}
