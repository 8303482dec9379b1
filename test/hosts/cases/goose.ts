import { join } from "node:path";
import type { HostCase } from "./types.js";

// Goose (docs/hosts.md): PreToolUse gets `{event, session_id, matcher_context,
// tool_name, tool_input, working_dir, tool_call_id}`; the shell tool is `shell`
// (`developer__shell` in older builds). A hook blocks with exit 2, its stderr
// the reason Goose returns to the model; there is no replacement, so a rewrite
// is a suggestion (as Kiro).
export const goose: HostCase = {
  id: "goose",
  cli: "goose",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command };
    return {
      toolInput,
      event: { event: "PreToolUse", session_id: "abc-123", matcher_context: "shell", tool_name: "shell", tool_input: toolInput, working_dir: cwd, tool_call_id: "call_9d2e" },
    };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, matcher_context: "write", tool_name: "write", tool_input: { path: join(cwd, "notes.md"), content: "x" } }),
  inputField: "tool_input",
};
