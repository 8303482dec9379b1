import { join } from "node:path";
import { claudeDeny, claudeRewrite, type HostCase, type ToolInput } from "./types.js";

// Continue CLI, `cn` (docs/hosts.md): Claude Code-compatible PreToolUse with the
// common fields (`session_id`, `transcript_path`, `cwd`, `permission_mode`),
// `tool_name: "Bash"`, `tool_input`, `tool_use_id`. A hook may provide
// `updatedInput`; Continue's own permissions judge the replaced command, so rtk
// rewrites only where they allow both the command and its `rtk` form.
export const continueCli: HostCase = {
  id: "continue",
  cli: "continue",
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command };
    return {
      toolInput,
      event: {
        session_id: "7b1d0c52-55e4-4c0e-9f51-2f3d8a1e6c90",
        transcript_path: "/home/dev/.continue/sessions/7b1d0c52.json",
        cwd,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: toolInput,
        tool_use_id: "toolu_01FQ9x2",
      },
    };
  },
  rewriteAnswer: (command: string, allow: boolean, toolInput: ToolInput) => claudeRewrite(command, allow, toolInput),
  activeDenyAnswer: claudeDeny,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "Edit", tool_input: { filepath: join(cwd, "notes.md"), old_string: "a", new_string: "b" } }),
  inputField: "tool_input",
};
