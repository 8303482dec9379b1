import { join } from "node:path";
import { claudeAsk, claudeDeny, claudeRewrite, type HostCase } from "./types.js";

// Devin for Terminal (docs/hosts.md): Claude Code-compatible hooks; the shell
// tool is `exec` with `{command, shell_id}`, the event has no `cwd`, the answer
// is Claude Code's. Devin reads Claude Code's settings, rules included.
export const devin: HostCase = {
  id: "devin",
  cli: "devin",
  lists: { allow: true, ask: true, deny: true },
  recorded(command) {
    const toolInput = { command, shell_id: "main" };
    return {
      toolInput,
      event: { session_id: "devin-5c1e9a7b", hook_event_name: "PreToolUse", tool_name: "exec", tool_input: toolInput },
    };
  },
  rewriteAnswer: claudeRewrite,
  askAnswer: claudeAsk,
  passAnswer: null,
  activeDenyAnswer: claudeDeny,
  otherTool: (e, cwd) => ({ ...e, tool_name: "edit", tool_input: { file_path: join(cwd, "README.md"), old_string: "a", new_string: "b" } }),
  inputField: "tool_input",
};
