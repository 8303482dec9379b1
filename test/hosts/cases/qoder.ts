import { join } from "node:path";
import type { HostCase } from "./types.js";

// Qoder CLI (docs/hosts.md): PreToolUse with the common fields (`session_id`,
// `transcript_path`, `cwd`, `hook_event_name`, `permission_mode`), `tool_name:
// "Bash"`, `tool_input.command`. A hook blocks with exit 2 and its stderr is
// reported back to the agent; no replacement is documented, so a rewrite is a
// suggestion (as Kiro).
export const qoder: HostCase = {
  id: "qoder",
  cli: "qoder",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status" };
    return {
      toolInput,
      event: {
        session_id: "c4e81f2a-0d6b-4b9e-a3f5-61d27e9c0a48",
        transcript_path: "/home/dev/.qoder/projects/app/c4e81f2a.jsonl",
        cwd,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: toolInput,
      },
    };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "Write", tool_input: { file_path: join(cwd, "notes.md"), content: "x" } }),
  inputField: "tool_input",
  // SessionStart, with the common fields: its plain stdout is added to the session's context.
  sessionStart: {
    event: (cwd) => ({
      session_id: "c41e8a9b-2d7f-4e03-b5a6-9f1d0c3e7b52",
      transcript_path: "/home/dev/.qoder/projects/app/c41e8a9b.jsonl",
      cwd,
      hook_event_name: "SessionStart",
      permission_mode: "default",
      source: "startup",
    }),
    answer: (text) => text,
    silent: null,
  },
};
