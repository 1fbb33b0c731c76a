// results.mjs reads a model request the way the model would: it finds the tool results a client sent
// back (each wire has its own item), what text they carry (strings anywhere in the item, and inside
// JSON text a client stringified), the error flag if the wire has one, and every image part in the
// request in the wire's own image form (a base64 string inside text is not an image).

/** toolResults lists the tool-result items of a request body, in order. */
export function toolResults(wire, body) {
  const out = [];
  const push = (callId, item, payload, isError) => out.push({ callId, item, payload: readable(payload), isError, texts: strings(payload), plain: plainStrings(payload) });
  switch (wire) {
    case "anthropic":
      for (const m of body.messages ?? []) {
        for (const b of Array.isArray(m.content) ? m.content : []) {
          if (b.type === "tool_result") push(b.tool_use_id, b, b.content, b.is_error === true);
        }
      }
      break;
    case "responses":
      for (const it of body.input ?? []) {
        if (/_call_output$/.test(it.type ?? "")) push(it.call_id, it, it.output, it.success === false ? true : undefined);
      }
      break;
    case "chat":
      for (const m of body.messages ?? []) if (m.role === "tool") push(m.tool_call_id, m, m.content, undefined);
      break;
    case "gemini":
      for (const c of body.contents ?? []) {
        for (const p of c.parts ?? []) {
          if (p.functionResponse) push(p.functionResponse.id ?? p.functionResponse.name, p, p.functionResponse.response, "error" in (p.functionResponse.response ?? {}));
        }
      }
      break;
  }
  return out;
}

/**
 * readable is a result's content as the model reads it: a string as is, a list of parts as their
 * texts joined with newlines, anything else (Gemini's response object) as its JSON.
 */
function readable(v) {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((p) => p && typeof p === "object" && "type" in p)) {
    return v.filter((p) => typeof p.text === "string").map((p) => p.text).join("\n");
  }
  return JSON.stringify(v ?? null);
}

const SKIP = new Set(["type", "id", "tool_use_id", "call_id", "tool_call_id", "name", "cache_control", "data", "media_type", "mimeType", "mime_type", "image_url", "url"]);

/** strings collects the text a value carries, looking inside strings that are JSON. */
export function strings(v, out = []) {
  if (typeof v === "string") {
    out.push(v);
    const j = embeddedJSON(v);
    if (j !== undefined) strings(j, out);
  } else if (Array.isArray(v)) {
    for (const x of v) strings(x, out);
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) if (!SKIP.has(k)) strings(x, out);
  }
  return out;
}

/**
 * embeddedJSON parses the JSON a string is or ends with ("... with response: [{...}]", as Gemini CLI
 * words an error); undefined when there is none.
 */
function embeddedJSON(v) {
  const t = v.trimEnd();
  if (!/[\]}]$/.test(t)) return undefined;
  let i = t.search(/[[{]/);
  for (let tries = 0; i >= 0 && tries < 8; tries++) {
    try {
      return JSON.parse(t.slice(i));
    } catch {
      // not JSON from here: try the next bracket
    }
    const j = t.slice(i + 1).search(/[[{]/);
    i = j < 0 ? -1 : i + 1 + j;
  }
  return undefined;
}

/** plainStrings collects the strings of a value as sent, without looking inside JSON text. */
function plainStrings(v, out = []) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) plainStrings(x, out);
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) if (!SKIP.has(k)) plainStrings(x, out);
  return out;
}

/** images lists every image part in v, in any wire's form: {path, mediaType, data}. */
export function images(v, path = "$", out = []) {
  if (Array.isArray(v)) {
    v.forEach((x, i) => images(x, `${path}[${i}]`, out));
    return out;
  }
  if (!v || typeof v !== "object") return out;
  if (v.type === "image" && v.source?.type === "base64") out.push({ path, mediaType: v.source.media_type, data: v.source.data });
  else if (v.type === "input_image" && typeof v.image_url === "string") out.push({ path, ...dataURL(v.image_url) });
  else if (v.type === "image_url" && v.image_url) out.push({ path, ...dataURL(v.image_url.url ?? v.image_url) });
  else if (v.type === "file" && typeof v.file?.file_data === "string") out.push({ path, ...dataURL(v.file.file_data) });
  else if (v.inlineData?.data) out.push({ path, mediaType: v.inlineData.mimeType, data: v.inlineData.data });
  else for (const [k, x] of Object.entries(v)) images(x, `${path}.${k}`, out);
  return out;
}

function dataURL(u) {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(String(u));
  return m ? { mediaType: m[1], data: m[2] } : { mediaType: "url", data: String(u) };
}
