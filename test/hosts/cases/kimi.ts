import { join } from "node:path";
import type { HostCase } from "./types.js";

// Kimi Code CLI (docs/hosts.md): PreToolUse with snake_case fields, the `Bash`
// tool's `tool_input.command`; a hook can block (exit 2, stderr to the model)
// but not replace, so a rewrite is a suggestion, as for Kiro.
export const kimi: HostCase = {
  id: "kimi",
  cli: "kimi",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, timeout: 60 };
    return {
      toolInput,
      event: {
        hook_event_name: "PreToolUse",
        session_id: "session_7f2c9d41",
        session_title: "Fix the login page",
        client_type: "kimi_code_cli",
        cwd,
        tool_name: "Bash",
        tool_input: toolInput,
        tool_call_id: "tool_call_3b8e",
      },
    };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "ReadFile", tool_input: { path: join(cwd, "README.md") } }),
  inputField: "tool_input",
};
