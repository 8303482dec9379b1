// Codex sessions (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): lines of
// {timestamp, type, payload}. session_meta gives the session id and folder,
// turn_context the folder of later turns; a response_item `function_call`
// (shell: argv array; shell_command: a command string; exec_command: `cmd`) or
// `local_shell_call` is answered by a `function_call_output` with its call_id,
// whose output is either JSON {output, metadata: {exit_code}} or text headed by
// "Exit code: N" / "Process exited with code N" and "Output:".
import { shellQuote } from "../../text/quote.js";
import { codexTruncated, timeOf, type ShellCall } from "./records.js";

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const SHELL_CALLS = new Set(["shell", "shell_command", "exec_command", "container.exec", "local_shell"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash"]);

export class CodexReader {
  private pending = new Map<string, ShellCall>();
  private session = "";
  private project = "";
  private cwd = "";

  constructor(private readonly emit: (call: ShellCall) => void) {}

  line(obj: Json): void {
    const payload = obj["payload"];
    if (!isObj(payload)) return;
    if (obj["type"] === "session_meta") {
      if (typeof payload["id"] === "string") this.session = payload["id"];
      if (typeof payload["cwd"] === "string") this.project = this.cwd = payload["cwd"];
      return;
    }
    if (obj["type"] === "turn_context") {
      if (typeof payload["cwd"] === "string") this.cwd = payload["cwd"];
      return;
    }
    if (obj["type"] !== "response_item") return;
    const callId = typeof payload["call_id"] === "string" ? payload["call_id"] : null;
    if (callId === null) return;
    if (payload["type"] === "function_call" || payload["type"] === "local_shell_call") {
      const call = commandOf(payload);
      if (!call) return;
      this.pending.set(callId, {
        source: "codex",
        session: this.session,
        id: callId,
        time: timeOf(obj["timestamp"]),
        project: this.project || call.cwd || "",
        cwd: call.cwd || this.cwd,
        command: call.command,
        output: null,
        exitCode: null,
        truncated: false,
      });
    } else if (payload["type"] === "function_call_output") {
      const call = this.pending.get(callId);
      if (!call) return;
      this.pending.delete(callId);
      const { text, exitCode } = outputOf(payload["output"]);
      this.emit({ ...call, output: text, exitCode, truncated: codexTruncated(text) });
    }
  }

  end(): void {
    for (const call of this.pending.values()) this.emit(call);
    this.pending.clear();
  }
}

function commandOf(payload: Json): { command: string; cwd: string } | null {
  let args: unknown;
  if (payload["type"] === "local_shell_call") {
    args = payload["action"];
  } else {
    if (typeof payload["name"] !== "string" || !SHELL_CALLS.has(payload["name"])) return null;
    try {
      args = typeof payload["arguments"] === "string" ? JSON.parse(payload["arguments"]) : payload["arguments"];
    } catch {
      return null;
    }
  }
  if (!isObj(args)) return null;
  const cwd = typeof args["workdir"] === "string" ? args["workdir"] : typeof args["working_directory"] === "string" ? args["working_directory"] : "";
  const raw = args["cmd"] ?? args["command"];
  if (typeof raw === "string") return { command: raw, cwd };
  if (!Array.isArray(raw) || !raw.length || !raw.every((w) => typeof w === "string")) return null;
  const argv = raw as string[];
  // The usual form is the script handed to a shell: the script is the command.
  if (argv.length === 3 && SHELLS.has(argv[0]!.replace(/^.*\//, "")) && /^-l?c$|^-cl$/.test(argv[1]!)) return { command: argv[2]!, cwd };
  return { command: shellQuote(argv), cwd };
}

const EXIT_HEADER = /^(?:Exit code: |Process exited with code )(-?\d+)$/m;
const OUTPUT_HEADER = "\nOutput:\n";

function outputOf(output: unknown): { text: string; exitCode: number | null } {
  if (isObj(output)) return fromObject(output);
  if (typeof output !== "string") return { text: "", exitCode: null };
  if (output.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isObj(parsed) && typeof parsed["output"] === "string") return fromObject(parsed);
    } catch {
      // Plain text that starts with a brace.
    }
  }
  const at = output.indexOf(OUTPUT_HEADER);
  if (at >= 0) {
    const head = output.slice(0, at);
    const m = EXIT_HEADER.exec(head);
    if (m) return { text: output.slice(at + OUTPUT_HEADER.length), exitCode: Number(m[1]) };
  }
  return { text: output, exitCode: null };
}

function fromObject(o: Json): { text: string; exitCode: number | null } {
  const meta = o["metadata"];
  const code = isObj(meta) && typeof meta["exit_code"] === "number" ? meta["exit_code"] : null;
  return { text: typeof o["output"] === "string" ? o["output"] : "", exitCode: code };
}
