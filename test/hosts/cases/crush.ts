import { join } from "node:path";
import type { HostCase } from "./types.js";

// Crush (docs/hosts.md): PreToolUse gets `{event, session_id, cwd, tool_name:
// "bash", tool_input: {command, …}}`; `updated_input` on stdout is shallow-merged
// over the tool's input, and Crush's own checks run on the replaced command: a
// rewrite is handed back only where Crush runs the command as typed unprompted
// (its read-only list), with `decision: "allow"`, which pre-approves the call.
// Empty stdout is "no opinion".
export const crush: HostCase = {
  id: "crush",
  cli: "crush",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status" };
    return { toolInput, event: { event: "PreToolUse", session_id: "313909e", cwd, tool_name: "bash", tool_input: toolInput } };
  },
  // A shallow merge: only the command is handed back, the other fields stay as the model sent them. Every rewrite carries the allow.
  rewriteAnswer: (command: string) => ({ decision: "allow", updated_input: { command } }),
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "edit", tool_input: { file_path: join(cwd, "notes.md"), old_string: "a", new_string: "b" } }),
  inputField: "tool_input",
  readOnlyByItself: true,
};
