// The Gemini API (`generateContent`, `streamGenerateContent?alt=sse`), as
// Gemini CLI speaks it with an API key to GOOGLE_GEMINI_BASE_URL: each turn of
// the session's own conversation (the request that offers tools) asks for
// `run_shell_command` calls with the script's next commands (one, or a batch of
// parallel calls); a request whose contents carry a call's `functionResponse`
// records what Gemini CLI sent back. Side requests (routing, checks) get a
// short text. The calls are asked for even where Gemini CLI has withheld the
// shell tool (its policy denies it outright): it answers that the tool does not
// exist, which is its refusal.
import type { Dialect, Received } from "./model.js";

interface Part {
  text?: string;
  functionCall?: { id?: string; name?: string; args?: { command?: string } };
  functionResponse?: { id?: string; name?: string; response?: unknown };
}

const SHELL_TOOL = "run_shell_command";

let calls = 0;
const recorded = new Set<string>();
/** The command of each call this stand-in asked for, by call id (Gemini sends back the arguments its hook replaced). */
const sent = new Map<string, string>();
const callIndex = (id: string) => Number(/_(\d+)$/.exec(id)?.[1] ?? 0);

/** The dialect; `batch` calls per turn (Gemini CLI runs a turn's shell calls side by side, which saves a model round trip per command). */
export const geminiApi = (batch = 1): Dialect => ({
  answer(path, body, next, record, issued, take) {
    const m = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    if (!m) return null;
    if (m[2] === "countTokens") return { json: { totalTokens: 100 } };
    const contents = Array.isArray(body["contents"]) ? (body["contents"] as { role?: string; parts?: Part[] }[]) : [];
    const tools = Array.isArray(body["tools"]) ? (body["tools"] as { functionDeclarations?: unknown[] }[]) : [];
    const main = tools.some((t) => Array.isArray(t.functionDeclarations) && t.functionDeclarations.length > 0);
    // Only the session's own conversation answers calls: a side request (Gemini's check for a loop) carries a digest of it.
    const asked = new Map<string, string>();
    if (main)
      for (const c of contents)
        for (const p of c.parts ?? []) if (p.functionCall?.name === SHELL_TOOL && p.functionCall.id) asked.set(p.functionCall.id, sent.get(p.functionCall.id) ?? p.functionCall.args?.command ?? "");
    // In the order the calls were asked for, which is the script's.
    const answers = contents.flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse?.id && asked.has(p.functionResponse.id) && !recorded.has(p.functionResponse.id));
    answers.sort((a, b) => callIndex(a.functionResponse!.id!) - callIndex(b.functionResponse!.id!));
    for (const p of answers) {
      const id = p.functionResponse!.id!;
      recorded.add(id);
      record({ id, command: asked.get(id)!, text: responseText(p.functionResponse!.response), isError: false });
    }
    const commands = !main ? [] : take ? take(batch) : [next([])].filter((c): c is string => c !== null);
    const parts: Part[] = commands.map((command, k) => {
      const id = `call_${++calls}`;
      issued?.(id, k);
      sent.set(id, command);
      return { functionCall: { id, name: SHELL_TOOL, args: { command } } };
    });
    if (!parts.length) parts.push({ text: main ? "done" : '{"next_speaker":"user","reasoning":"done"}' });
    const response = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: m[1],
    };
    return m[2] === "streamGenerateContent" ? { events: [[null, response]] } : { json: response };
  },
});

/** A function response's text: `{output}`, `{error}` or whatever else it holds, as text. */
function responseText(r: unknown): string {
  if (r && typeof r === "object") {
    const o = r as Record<string, unknown>;
    if (typeof o["output"] === "string") return o["output"];
    if (typeof o["error"] === "string") return o["error"];
  }
  return typeof r === "string" ? r : JSON.stringify(r);
}
