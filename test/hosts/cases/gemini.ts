import { join } from "node:path";
import { claudeSessionAnswer, type HostCase } from "./types.js";

export const gemini: HostCase = {
  id: "gemini",
  cli: "gemini",
  lists: { allow: true, ask: true, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status", dir_path: "." };
    return {
      toolInput,
      event: {
        session_id: "a1b2c3d4-e5f6-4789-8abc-def012345678",
        transcript_path: "/home/dev/.gemini/tmp/6f1e2d/chats/session-2026-01-15T10-04-a1b2c3d4.json",
        cwd,
        hook_event_name: "BeforeTool",
        timestamp: "2026-01-15T10:04:12.345Z",
        tool_name: "run_shell_command",
        tool_input: toolInput,
      },
    };
  },
  // Gemini replaces the call's arguments by `tool_input` whole, then judges the command by its own rules: no decision, every argument back.
  rewriteAnswer: (command, _allow, toolInput) => ({ hookSpecificOutput: { tool_input: { ...toolInput, command } } }),
  passAnswer: {},
  otherTool: (e, cwd) => ({ ...e, tool_name: "read_file", tool_input: { absolute_path: join(cwd, "README.md") } }),
  inputField: "tool_input",
  // SessionStart (source startup, resume or clear): hookSpecificOutput.additionalContext, as Claude Code's.
  sessionStart: {
    event: (cwd) => ({
      session_id: "a1b2c3d4-e5f6-4789-8abc-def012345678",
      transcript_path: "/home/dev/.gemini/tmp/6f1e2d/chats/session-2026-01-15T10-04-a1b2c3d4.json",
      cwd,
      hook_event_name: "SessionStart",
      timestamp: "2026-01-15T10:04:00.000Z",
      source: "startup",
    }),
    answer: claudeSessionAnswer,
    silent: {},
  },
};
