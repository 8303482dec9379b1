// An OpenAI-compatible chat completions API (streaming), as hosts with a custom
// provider speak it: each turn asks for `bash` calls with the script's next
// commands (one, or a batch of parallel calls) in `chat.completion.chunk`
// events; a request whose messages carry a `role: "tool"` answer to a call it
// asked for records that answer.
import { contentText, type Dialect, type Reply } from "./model.js";
import { SESSION_PROMPT } from "./anthropic.js";

let ids = 0;
const recorded = new Set<string>();

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
}

/** The dialect; `batch` calls per turn (a host runs parallel calls side by side, which saves a model round trip per command). */
export const openaiChat = (batch = 1): Dialect => ({
  answer(path, body, next, record, issued, take) {
    if (path.endsWith("/models")) return { json: { object: "list", data: [{ id: "test-model", object: "model", created: 0, owned_by: "test" }] } };
    if (!path.endsWith("/chat/completions")) return null;
    const tools = Array.isArray(body["tools"]) ? (body["tools"] as { function?: { name?: string } }[]) : [];
    const messages = Array.isArray(body["messages"]) ? (body["messages"] as ChatMessage[]) : [];
    // What was asked for each call, as sent (a host may send back the arguments a plugin changed).
    const asked = new Map<string, string>();
    for (const m of messages) {
      if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
      for (const c of m.tool_calls) if (c.id) asked.set(c.id, sent.get(c.id) ?? commandOf(c.function?.arguments));
    }
    // Only the main conversation (offered the bash tool, opened by the session's prompt) is scripted; side requests (a title) get a short text.
    const main = tools.some((t) => t.function?.name === "bash") && messages.some((m) => m.role === "user" && contentText(m.content).includes(SESSION_PROMPT));
    if (main) {
      // In the order the calls were asked for, which is the script's.
      const answers = messages.filter((m) => m.role === "tool" && m.tool_call_id && asked.has(m.tool_call_id) && !recorded.has(m.tool_call_id));
      answers.sort((a, b) => callIndex(a.tool_call_id!) - callIndex(b.tool_call_id!));
      for (const m of answers) {
        recorded.add(m.tool_call_id!);
        const text = contentText(m.content);
        record({ id: m.tool_call_id!, command: asked.get(m.tool_call_id!)!, text, isError: /^(Error|error):/.test(text) });
      }
    }
    const commands = !main ? [] : take ? take(batch) : [next([])].filter((c): c is string => c !== null);
    const id = `chatcmpl-${++ids}`;
    const model = typeof body["model"] === "string" ? body["model"] : "test-model";
    if (body["stream"] !== true) {
      return { json: { id, object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage: usage() } };
    }
    return { events: stream(id, model, commands, issued) };
  },
});

function commandOf(args: string | undefined): string {
  try {
    const parsed = JSON.parse(args ?? "{}") as { command?: unknown };
    return typeof parsed.command === "string" ? parsed.command : "";
  } catch {
    return "";
  }
}

let calls = 0;
/** The command of each call this stand-in asked for, by call id. */
const sent = new Map<string, string>();
const callIndex = (id: string) => Number(/_(\d+)$/.exec(id)?.[1] ?? 0);

const usage = () => ({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });

function stream(id: string, model: string, commands: readonly string[], issued?: (id: string, k?: number) => void): Reply["events"] {
  const chunk = (delta: object, finish: string | null, extra: object = {}): [null, unknown] => [
    null,
    { id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra },
  ];
  const done: [null, unknown][] = [
    [null, { id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: usage() }],
    [null, "[DONE]"],
  ];
  if (!commands.length) return [chunk({ role: "assistant", content: "done" }, null), chunk({}, "stop"), ...done];
  const events = commands.flatMap((command, index): [null, unknown][] => {
    const id = `call_${++calls}`;
    sent.set(id, command);
    issued?.(id, index);
    return [
      chunk({ ...(index === 0 ? { role: "assistant", content: null } : {}), tool_calls: [{ index, id, type: "function", function: { name: "bash", arguments: "" } }] }, null),
      chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify({ command, description: "Run a command" }) } }] }, null),
    ];
  });
  return [...events, chunk({}, "tool_calls"), ...done];
}
