// Claude Code transcripts (~/.claude/projects/<project>/<session>.jsonl): an
// assistant line holds `tool_use` items (name "Bash", input.command), a later
// user line the `tool_result` with the same id. Each line carries cwd,
// sessionId and timestamp.
import { claudeTruncated, timeOf, type ShellCall } from "./records.js";

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

// A failed command's result starts with its exit status.
const EXIT_LINE = /^(?:Error: )?Exit code (\d+)\n?/;

export class ClaudeReader {
  private pending = new Map<string, ShellCall>();
  private project: string | null = null;

  constructor(private readonly emit: (call: ShellCall) => void) {}

  line(obj: Json): void {
    const cwd = typeof obj["cwd"] === "string" ? obj["cwd"] : null;
    if (cwd !== null && this.project === null) this.project = cwd;
    const message = obj["message"];
    if (!isObj(message) || !Array.isArray(message["content"])) return;
    if (obj["type"] === "assistant") {
      for (const item of message["content"]) {
        if (!isObj(item) || item["type"] !== "tool_use" || item["name"] !== "Bash" || typeof item["id"] !== "string") continue;
        const input = item["input"];
        if (!isObj(input) || typeof input["command"] !== "string") continue;
        this.pending.set(item["id"], {
          source: "claude",
          session: typeof obj["sessionId"] === "string" ? obj["sessionId"] : "",
          id: item["id"],
          time: timeOf(obj["timestamp"]),
          project: this.project ?? cwd ?? "",
          cwd: cwd ?? this.project ?? "",
          command: input["command"],
          output: null,
          exitCode: null,
          truncated: false,
        });
      }
    } else if (obj["type"] === "user") {
      for (const item of message["content"]) {
        if (!isObj(item) || item["type"] !== "tool_result" || typeof item["tool_use_id"] !== "string") continue;
        const call = this.pending.get(item["tool_use_id"]);
        if (!call) continue;
        this.pending.delete(call.id);
        let text = resultText(item["content"]);
        let exitCode = 0;
        if (item["is_error"] === true) {
          const m = EXIT_LINE.exec(text);
          exitCode = m ? Number(m[1]) : 1;
          if (m) text = text.slice(m[0].length);
        }
        this.emit({ ...call, output: text, exitCode, truncated: claudeTruncated(text) });
      }
    }
  }

  /** The calls whose result never came (the session ended, or the file was cut). */
  end(): void {
    for (const call of this.pending.values()) this.emit(call);
    this.pending.clear();
  }
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((c): c is Json => isObj(c) && c["type"] === "text" && typeof c["text"] === "string")
    .map((c) => c["text"] as string)
    .join("\n");
}
