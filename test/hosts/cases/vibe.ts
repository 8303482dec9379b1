import { join } from "node:path";
import type { HostCase, ToolInput } from "./types.js";

// Mistral Vibe (docs/hosts.md): a `pre_tool` hook gets `{cwd, hook_event_name:
// "pre_tool", tool_name, tool_call_id, tool_input}`; the arguments it hands back
// in `hook_specific_output.tool_input` replace the model's, and Vibe's own
// approval still runs (no decision is claimed). Empty stdout: the call runs as
// typed.
export const vibe: HostCase = {
  id: "vibe",
  cli: "vibe",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, timeout: 60 };
    return { toolInput, event: { cwd, hook_event_name: "pre_tool", tool_name: "bash", tool_call_id: "call_3f9a1c7e", tool_input: toolInput } };
  },
  rewriteAnswer: (command: string, _allow: boolean, toolInput: ToolInput) => ({ hook_specific_output: { tool_input: { ...toolInput, command } } }),
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "write_file", tool_input: { path: join(cwd, "notes.md"), content: "x", overwrite: false } }),
  inputField: "tool_input",
};
