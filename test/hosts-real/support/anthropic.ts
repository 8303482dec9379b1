// The Anthropic Messages API (streaming), as Claude Code speaks it: each turn
// asks for one `Bash` call with the script's next command; a turn whose request
// carries a tool result records it.
import { contentText, type Dialect, type Received, type Reply } from "./model.js";

let ids = 0;

/** The prompt a driver opens its session with: how the stand-in tells the main conversation from a host's side requests. */
export const SESSION_PROMPT = "Run the commands you are given.";

export const anthropic: Dialect = {
  answer(path, body, next, record, issued) {
    if (!path.startsWith("/v1/messages")) return null;
    if (path.endsWith("/count_tokens")) return { json: { input_tokens: 100 } };
    const tools = Array.isArray(body["tools"]) ? (body["tools"] as { name?: string }[]) : [];
    const messages = Array.isArray(body["messages"]) ? (body["messages"] as { role?: string; content?: unknown }[]) : [];
    const last = messages[messages.length - 1];
    const asked = new Map<string, string>();
    for (const m of messages) {
      if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
      for (const b of m.content as { type?: string; id?: string; input?: { command?: string } }[]) if (b.type === "tool_use" && b.id) asked.set(b.id, b.input?.command ?? "");
    }
    // Only the main conversation (offered the Bash tool, opened by the session's prompt) is scripted; side requests get a short text.
    const main = tools.some((t) => t.name === "Bash") && contentText(messages[0]?.content).includes(SESSION_PROMPT);
    if (main && last && Array.isArray(last.content)) {
      for (const b of last.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[]) {
        if (b.type === "tool_result" && b.tool_use_id && asked.has(b.tool_use_id) && !recorded.has(b.tool_use_id)) {
          recorded.add(b.tool_use_id);
          const r: Received = { id: b.tool_use_id, command: asked.get(b.tool_use_id)!, text: contentText(b.content), isError: b.is_error === true };
          record(r);
        }
      }
    }
    const command = main ? next([]) : null;
    const id = `msg_${++ids}`;
    if (command !== null) issued?.(`toolu_${id}`);
    const model = typeof body["model"] === "string" ? body["model"] : "claude-test";
    if (body["stream"] !== true) {
      return {
        json: { id, type: "message", role: "assistant", model, content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
      };
    }
    return { events: stream(id, model, command) };
  },
};

const recorded = new Set<string>();

function stream(id: string, model: string, command: string | null): Reply["events"] {
  const start: [string, unknown] = [
    "message_start",
    { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
  ];
  const end = (reason: string): [string, unknown][] => [
    ["message_delta", { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 5 } }],
    ["message_stop", { type: "message_stop" }],
  ];
  if (command === null) {
    return [
      start,
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "done" } }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ...end("end_turn"),
    ];
  }
  return [
    start,
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${id}`, name: "Bash", input: {} } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify({ command, description: "Run a command" }) } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ...end("tool_use"),
  ];
}
