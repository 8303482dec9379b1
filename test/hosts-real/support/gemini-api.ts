// The Gemini API (`generateContent`, `streamGenerateContent?alt=sse`), as
// Gemini CLI speaks it with an API key to GOOGLE_GEMINI_BASE_URL: each turn of
// the session's own conversation (offered the `run_shell_command` tool) asks
// for one call with the script's next command; a request whose contents carry
// the call's `functionResponse` records what Gemini CLI sent back. Side
// requests (routing, checks) get a short text.
import type { Dialect, Received } from "./model.js";

interface Part {
  text?: string;
  functionCall?: { id?: string; name?: string; args?: { command?: string } };
  functionResponse?: { id?: string; name?: string; response?: unknown };
}

const SHELL_TOOL = "run_shell_command";

let calls = 0;
const recorded = new Set<string>();

export const geminiApi: Dialect = {
  answer(path, body, next, record, issued) {
    const m = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    if (!m) return null;
    if (m[2] === "countTokens") return { json: { totalTokens: 100 } };
    const contents = Array.isArray(body["contents"]) ? (body["contents"] as { role?: string; parts?: Part[] }[]) : [];
    const asked = new Map<string, string>();
    for (const c of contents) for (const p of c.parts ?? []) if (p.functionCall?.name === SHELL_TOOL && p.functionCall.id) asked.set(p.functionCall.id, p.functionCall.args?.command ?? "");
    for (const c of contents) {
      for (const p of c.parts ?? []) {
        const id = p.functionResponse?.id;
        if (!id || !asked.has(id) || recorded.has(id)) continue;
        recorded.add(id);
        const r: Received = { id, command: asked.get(id)!, text: responseText(p.functionResponse!.response), isError: false };
        record(r);
      }
    }
    const tools = Array.isArray(body["tools"]) ? (body["tools"] as { functionDeclarations?: { name?: string }[] }[]) : [];
    const main = tools.some((t) => t.functionDeclarations?.some((d) => d.name === SHELL_TOOL));
    const command = main ? next([]) : null;
    let part: Part;
    if (command !== null) {
      const id = `call_${++calls}`;
      issued?.(id);
      part = { functionCall: { id, name: SHELL_TOOL, args: { command } } };
    } else part = { text: main ? "done" : '{"next_speaker":"user","reasoning":"done"}' };
    const response = {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: m[1],
    };
    return m[2] === "streamGenerateContent" ? { events: [[null, response]] } : { json: response };
  },
};

/** A function response's text: `{output}`, `{error}` or whatever else it holds, as text. */
function responseText(r: unknown): string {
  if (r && typeof r === "object") {
    const o = r as Record<string, unknown>;
    if (typeof o["output"] === "string") return o["output"];
    if (typeof o["error"] === "string") return o["error"];
  }
  return typeof r === "string" ? r : JSON.stringify(r);
}
