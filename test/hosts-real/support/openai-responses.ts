// The OpenAI Responses API (streaming), as Codex speaks it to a custom model
// provider (`wire_api = "responses"`): each turn asks for one call of Codex's
// shell tool (`exec_command`, whose argument is `cmd`) with the script's next
// command; a request whose input carries the call's `function_call_output`
// records what Codex sent back. Once the script is done the answer is a short
// message, which ends Codex's turn.
import { contentText, type Dialect, type Received, type Reply } from "./model.js";

interface InputItem {
  type?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
}

/** The shell tool Codex offers, by the name it has in the request's `tools`, and the argument that holds the command. */
const SHELL_TOOLS: Record<string, string> = { exec_command: "cmd", shell_command: "command" };

let responses = 0;
const recorded = new Set<string>();

export const openaiResponses: Dialect = {
  answer(path, body, next, record, issued) {
    if (!path.endsWith("/responses")) return null;
    const input = Array.isArray(body["input"]) ? (body["input"] as InputItem[]) : [];
    const asked = new Map<string, string>();
    for (const item of input) {
      if (item.type !== "function_call" || !item.call_id || !item.name || !(item.name in SHELL_TOOLS)) continue;
      asked.set(item.call_id, commandOf(item.name, item.arguments));
    }
    for (const item of input) {
      if (item.type !== "function_call_output" || !item.call_id || !asked.has(item.call_id) || recorded.has(item.call_id)) continue;
      recorded.add(item.call_id);
      const r: Received = { id: item.call_id, command: asked.get(item.call_id)!, text: outputText(item.output), isError: false };
      record(r);
    }
    const tools = Array.isArray(body["tools"]) ? (body["tools"] as { name?: string }[]) : [];
    const tool = tools.map((t) => t.name ?? "").find((n) => n in SHELL_TOOLS) ?? null;
    // Side requests (a title, a compaction) are offered no shell tool: they get a short text.
    const command = tool ? next([]) : null;
    const model = typeof body["model"] === "string" ? body["model"] : "gpt-test";
    const id = `resp_${++responses}`;
    if (command !== null) issued?.(`call_${id}`);
    return { events: stream(id, model, command === null ? null : { tool: tool!, command }) };
  },
};

function commandOf(tool: string, args: string | undefined): string {
  try {
    const parsed = JSON.parse(args ?? "{}") as Record<string, unknown>;
    const value = parsed[SHELL_TOOLS[tool]!];
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

/** A function call's output: a string, or content items holding text. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output && typeof output === "object" && !Array.isArray(output) && "content" in output) return contentText((output as { content: unknown }).content);
  return contentText(output);
}

function stream(id: string, model: string, call: { tool: string; command: string } | null): Reply["events"] {
  const item = call
    ? { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: call.tool, arguments: JSON.stringify({ [SHELL_TOOLS[call.tool]!]: call.command }), status: "completed" }
    : { type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const response = { id, object: "response", model, status: "in_progress", output: [] as unknown[] };
  return [
    ["response.created", { type: "response.created", response }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress" } }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: { ...response, status: "completed", output: [item], usage } }],
  ];
}
