// mock.mjs is the scripted model: one loopback HTTP server that speaks the four wires the clients use
// (Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, Gemini generateContent), streaming or
// not. A request that offers the Cordon tools is a turn of the agent loop: the mock records it whole,
// asks its script for the next action (a tool call or the closing text) and answers with it. Any other
// request (titles, summaries, routing, token counts) gets a short text, so side calls never stall a run.

import { createServer } from "node:http";

const now = () => performance.now();

/** MockModel serves one client run. script(turn) returns (or resolves with) {tool, args} or {text}. */
export class MockModel {
  constructor(script) {
    this.script = script;
    this.turns = []; // {at, wire, body, tools, results}
    this.other = []; // {at, method, path}
    this.firstRequestAt = null;
    this.server = createServer((req, res) => this.#handle(req, res));
  }

  /** start listens on 127.0.0.1 and resolves with the base URL. */
  start() {
    return new Promise((resolve) => {
      this.server.listen(0, "127.0.0.1", () => {
        this.url = `http://127.0.0.1:${this.server.address().port}`;
        resolve(this.url);
      });
    });
  }

  stop() {
    this.server.closeAllConnections?.();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  async #handle(req, res) {
    const chunks = [];
    let size = 0;
    for await (const c of req) {
      size += c.length;
      if (size > 64 << 20) return end(res, 413, { error: "too large" });
      chunks.push(c);
    }
    const at = now();
    this.firstRequestAt ??= at;
    let body = null;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
    } catch {
      body = null;
    }
    const url = new URL(req.url, "http://x");
    const wire = wireOf(req.method, url.pathname);
    if (!wire || !body) {
      this.other.push({ at, method: req.method, path: url.pathname });
      if (url.pathname.endsWith(":countTokens")) return end(res, 200, { totalTokens: 10 });
      if (url.pathname.endsWith("/models")) return end(res, 200, { object: "list", data: [] });
      return end(res, 404, { error: { message: `mock: no route ${req.method} ${url.pathname}` } });
    }
    const w = WIRES[wire];
    const tools = w.tools(body);
    if (tools.length) this.firstToolsAt ??= at;
    const stream = wire === "gemini" ? url.pathname.includes(":streamGenerateContent") : body.stream === true;
    let action;
    const search = tools.some((n) => /cordon/i.test(n)) ? null : w.search?.(body);
    if (search) {
      // The client keeps its MCP tools behind a search tool: search for them, as a model would.
      this.searches = (this.searches ?? 0) + 1;
      action = search;
    } else if (tools.some((n) => /cordon/i.test(n))) {
      const turn = { at, wire, body, tools, index: this.turns.length };
      this.turns.push(turn);
      try {
        action = await this.script(turn);
      } catch (e) {
        action = { text: `mock script error: ${e.message}` };
      }
    } else {
      this.other.push({ at, method: req.method, path: url.pathname, side: true, tools, body });
      action = { text: w.sideText ?? "ok" };
    }
    w.respond(res, action, stream, this.turns.length);
  }
}

function end(res, status, obj) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(obj));
}

function wireOf(method, path) {
  if (method !== "POST") return null;
  if (path.endsWith("/messages") && !path.endsWith("/count_tokens")) return "anthropic";
  if (path.endsWith("/responses")) return "responses";
  if (path.endsWith("/chat/completions")) return "chat";
  if (/:(stream)?generateContent$/i.test(path)) return "gemini";
  return null;
}

function sse(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  return (event, data) => res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}

const callId = (n) => `call_${String(n).padStart(4, "0")}`;

const WIRES = {
  anthropic: {
    tools: (b) => (b.tools ?? []).map((t) => t.name).filter(Boolean),
    respond(res, a, stream, n) {
      const id = `msg_${n}`;
      const block = a.tool ? { type: "tool_use", id: callId(n), name: a.tool, input: a.args } : { type: "text", text: a.text };
      const stop = a.tool ? "tool_use" : "end_turn";
      const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      const msg = { id, type: "message", role: "assistant", model: "mock", content: [block], stop_reason: stop, stop_sequence: null, usage };
      if (!stream) return end(res, 200, msg);
      const send = sse(res);
      send("message_start", { type: "message_start", message: { ...msg, content: [], stop_reason: null } });
      if (a.tool) {
        send("content_block_start", { type: "content_block_start", index: 0, content_block: { ...block, input: {} } });
        send("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(a.args) } });
      } else {
        send("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        send("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: a.text } });
      }
      send("content_block_stop", { type: "content_block_stop", index: 0 });
      send("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
      send("message_stop", { type: "message_stop" });
      res.end();
    },
  },

  responses: {
    tools: (b) => [...flatTools(b.tools ?? []), ...flatTools((b.input ?? []).filter((i) => i.type === "tool_search_output").flatMap((i) => i.tools ?? []))],
    search: (b) => ((b.tools ?? []).some((t) => t.type === "tool_search") ? { search: { query: "cordon read write edit glob grep read_image apply_patch undo", limit: 20 } } : null),
    respond(res, a, stream, n) {
      const rid = `resp_${n}`;
      const item = a.search
        ? { type: "tool_search_call", id: `ts_${n}`, call_id: callId(n), status: "completed", execution: "client", arguments: a.search }
        : a.tool
        ? { type: "function_call", id: `fc_${n}`, call_id: callId(n), ...splitName(a.tool), arguments: JSON.stringify(a.args), status: "completed" }
        : { type: "message", id: `m_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: a.text, annotations: [] }] };
      const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
      const done = { id: rid, object: "response", status: "completed", model: "mock", output: [item], usage };
      if (!stream) return end(res, 200, done);
      const send = sse(res);
      send("response.created", { type: "response.created", response: { ...done, status: "in_progress", output: [] } });
      send("response.output_item.added", { type: "response.output_item.added", output_index: 0, item: a.tool ? { ...item, arguments: "" } : a.search ? item : { ...item, content: [] } });
      if (a.tool) {
        send("response.function_call_arguments.delta", { type: "response.function_call_arguments.delta", output_index: 0, item_id: item.id, delta: item.arguments });
        send("response.function_call_arguments.done", { type: "response.function_call_arguments.done", output_index: 0, item_id: item.id, arguments: item.arguments });
      } else if (!a.search) {
        send("response.output_text.delta", { type: "response.output_text.delta", output_index: 0, item_id: item.id, content_index: 0, delta: a.text });
      }
      send("response.output_item.done", { type: "response.output_item.done", output_index: 0, item });
      send("response.completed", { type: "response.completed", response: done });
      res.end();
    },
  },

  chat: {
    tools: (b) => (b.tools ?? []).map((t) => t.function?.name ?? t.name).filter(Boolean),
    respond(res, a, stream, n) {
      const id = `chatcmpl_${n}`;
      const created = Math.floor(Date.now() / 1000);
      const call = a.tool && { index: 0, id: callId(n), type: "function", function: { name: a.tool, arguments: JSON.stringify(a.args) } };
      const finish = a.tool ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (!stream) {
        const message = a.tool ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: a.text };
        return end(res, 200, { id, object: "chat.completion", created, model: "mock", choices: [{ index: 0, message, finish_reason: finish }], usage });
      }
      const send = sse(res);
      const chunk = (delta, finish_reason = null, extra = {}) =>
        send(null, { id, object: "chat.completion.chunk", created, model: "mock", choices: [{ index: 0, delta, finish_reason }], ...extra });
      chunk(a.tool ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: a.text });
      chunk({}, finish, { usage });
      send(null, "[DONE]");
      res.end();
    },
  },

  gemini: {
    sideText: '{"next_speaker": "user", "reasoning": "mock"}',
    tools: (b) => (b.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)).filter(Boolean),
    respond(res, a, stream) {
      const part = a.tool ? { functionCall: { name: a.tool, args: a.args } } : { text: a.text };
      const body = {
        candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: "mock",
      };
      if (!stream) return end(res, 200, body);
      const send = sse(res);
      send(null, body);
      res.end();
    },
  },
};

/** flatTools lists the function names of a Responses tools array; a namespace's as "<namespace>/<name>". */
function flatTools(tools) {
  const out = [];
  for (const t of tools) {
    if (t.type === "namespace") for (const sub of t.tools ?? []) out.push(`${t.name}/${sub.name}`);
    else if (t.name) out.push(t.name);
  }
  return out;
}

/** splitName turns "<namespace>/<name>" back into a function call's namespace and name. */
function splitName(n) {
  const i = n.lastIndexOf("/");
  return i < 0 ? { name: n } : { namespace: n.slice(0, i), name: n.slice(i + 1) };
}
