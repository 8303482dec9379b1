// An OpenAI-compatible chat completions API (streaming), as hosts with a custom
// provider speak it: each turn asks for calls of the host's shell tool (`bash`
// unless told) with the script's next commands (one, or a batch of parallel
// calls) in `chat.completion.chunk` events; a request whose messages carry a
// `role: "tool"` answer to a call it asked for records that answer. Where an
// answer tells the model to run another command instead (a hook that can only
// refuse, with a suggestion), the model does, and the call's answer is the one
// that command got.
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

/** How a host's shell tool is called: its name, and arguments it wants besides `command`. */
export interface ShellTool {
  name: string;
  args?: Record<string, unknown>;
  /** Ask for it in the main conversation even where the host does not offer it (to see how the host refuses a tool it withholds). */
  unoffered?: boolean;
  /** The command an answer tells the model to run instead, which it then runs (once per call); null: none. */
  follow?: (text: string) => string | null;
}

const BASH: ShellTool = { name: "bash", args: { description: "Run a command" } };

/** The dialect; `batch` calls per turn (a host runs parallel calls side by side, which saves a model round trip per command). */
export const openaiChat = (batch = 1, tool: ShellTool = BASH): Dialect => ({
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
    // Only the main conversation (offered the shell tool, opened by the session's prompt) is scripted; side requests (a title) get a short text.
    const main = (tool.unoffered ? tools.length > 0 : tools.some((t) => t.function?.name === tool.name)) && messages.some((m) => m.role === "user" && contentText(m.content).includes(SESSION_PROMPT));
    const id = `chatcmpl-${++ids}`;
    const model = typeof body["model"] === "string" ? body["model"] : "test-model";
    if (main) {
      // In the order the calls were asked for, which is the script's; a follow-up's answer stands for its call's.
      const answers = messages.filter((m) => m.role === "tool" && m.tool_call_id && asked.has(m.tool_call_id) && !recorded.has(m.tool_call_id));
      const byId = new Map(answers.map((m) => [m.tool_call_id!, contentText(m.content)]));
      const own = answers.filter((m) => !followOf.has(m.tool_call_id!)).sort((a, b) => callIndex(a.tool_call_id!) - callIndex(b.tool_call_id!));
      // Calls whose answer names another command to run: the model runs those first, the script waits.
      const toFollow = own.flatMap((m) => {
        if (followed.has(m.tool_call_id!)) return [];
        const command = tool.follow?.(byId.get(m.tool_call_id!)!) ?? null;
        return command === null ? [] : [{ of: m.tool_call_id!, command }];
      });
      if (toFollow.length && body["stream"] === true) return { events: stream(id, model, toFollow, tool) };
      for (const m of own) {
        const callId = m.tool_call_id!;
        const follow = followed.get(callId);
        if (follow !== undefined && !byId.has(follow)) break;
        recorded.add(callId);
        if (follow !== undefined) recorded.add(follow);
        const text = byId.get(follow ?? callId)!;
        record({ id: callId, command: asked.get(callId)!, text, isError: /^(Error|error):/.test(text) });
      }
    }
    const commands = !main ? [] : take ? take(batch) : [next([])].filter((c): c is string => c !== null);
    if (body["stream"] !== true) {
      return { json: { id, object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage: usage() } };
    }
    return {
      events: stream(
        id,
        model,
        commands.map((command) => ({ command })),
        tool,
        issued,
      ),
    };
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
/** The follow-up call asked for after each call whose answer named another command, and the other way round. */
const followed = new Map<string, string>();
const followOf = new Map<string, string>();

/** The call the model made on a call's answer, running the command that answer named instead; undefined: none. */
export const followUp = (id: string): string | undefined => followed.get(id);

/** The command of a call this stand-in asked for. */
export const sentCommand = (id: string): string | undefined => sent.get(id);
const callIndex = (id: string) => Number(/_(\d+)$/.exec(id)?.[1] ?? 0);

const usage = () => ({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });

/** A turn of calls: the script's next commands (`issued` names them), or follow-ups of earlier calls (`of`). */
function stream(id: string, model: string, commands: readonly { command: string; of?: string }[], tool: ShellTool, issued?: (id: string, k?: number) => void): Reply["events"] {
  const chunk = (delta: object, finish: string | null, extra: object = {}): [null, unknown] => [
    null,
    { id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra },
  ];
  const done: [null, unknown][] = [
    [null, { id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: usage() }],
    [null, "[DONE]"],
  ];
  if (!commands.length) return [chunk({ role: "assistant", content: "done" }, null), chunk({}, "stop"), ...done];
  const events = commands.flatMap(({ command, of }, index): [null, unknown][] => {
    const id = `call_${++calls}`;
    sent.set(id, command);
    if (of === undefined) issued?.(id, index);
    else {
      followed.set(of, id);
      followOf.set(id, of);
    }
    return [
      chunk({ ...(index === 0 ? { role: "assistant", content: null } : {}), tool_calls: [{ index, id, type: "function", function: { name: tool.name, arguments: "" } }] }, null),
      chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify({ command, ...tool.args }) } }] }, null),
    ];
  });
  return [...events, chunk({}, "tool_calls"), ...done];
}
