import { join } from "node:path";
import { claudeSessionAnswer, type HostCase } from "./types.js";

// Qwen Code (docs/hosts.md): PreToolUse with the common fields (`session_id`,
// `transcript_path`, `cwd`, `hook_event_name`, `timestamp`) and `permission_mode`,
// `tool_name: "run_shell_command"`, `tool_input`, `tool_use_id`, `tool_call_id`.
// Qwen 0.24.4 reads no `updatedInput` from it, so a rewrite is a suggestion:
// exit 2, stderr to the model (as Kiro), made where Qwen's rules allow the
// `rtk` form too (`permissions` in `.qwen/settings.json`).
export const qwen: HostCase = {
  id: "qwen",
  cli: "qwen",
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status", is_background: false };
    return {
      toolInput,
      event: {
        session_id: "7b2f0c1e-94d3-4a5b-8e61-2c9f3d7a0b14",
        transcript_path: "/home/dev/.qwen/projects/app/chats/7b2f0c1e.jsonl",
        cwd,
        hook_event_name: "PreToolUse",
        timestamp: "2026-12-03T14:02:11.512Z",
        permission_mode: "default",
        tool_name: "run_shell_command",
        tool_input: toolInput,
        tool_use_id: "toolu_9d41a7c2",
        tool_call_id: "call_5e0b3f",
      },
    };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "write_file", tool_input: { file_path: join(cwd, "notes.md"), content: "x" } }),
  inputField: "tool_input",
  // SessionStart (source startup, resume, clear or compact), with the common fields, `permission_mode` and `model`:
  // hookSpecificOutput.additionalContext, as Claude Code's.
  sessionStart: {
    event: (cwd) => ({
      session_id: "7b2f0c1e-94d3-4a5b-8e61-2c9f3d7a0b14",
      transcript_path: "/home/dev/.qwen/projects/app/chats/7b2f0c1e.jsonl",
      cwd,
      hook_event_name: "SessionStart",
      timestamp: "2026-12-03T14:01:58.204Z",
      permission_mode: "default",
      source: "startup",
      model: "qwen3-coder-plus",
    }),
    answer: claudeSessionAnswer,
    silent: null,
  },
};
