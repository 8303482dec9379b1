import { join } from "node:path";
import { claudeDeny, claudeRewrite, claudeSessionAnswer, type HostCase } from "./types.js";

// Factory Droid (docs/hosts.md): Claude Code's PreToolUse event for the shell
// tool `Execute`, answered in Claude's shape. Its rules are deny lists only
// (commandDenylist in settings.json), so no allow is ever earned.
export const factory: HostCase = {
  id: "factory",
  cli: "factory",
  lists: { allow: false, ask: false, deny: true },
  recorded(command, cwd) {
    const toolInput = { command };
    return {
      toolInput,
      event: {
        session_id: "0b7f3c2a-91d4-4e5b-8a6c-2f1e0d9c8b7a",
        transcript_path: "/home/dev/.factory/sessions/0b7f3c2a-91d4-4e5b-8a6c-2f1e0d9c8b7a.jsonl",
        cwd,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Execute",
        tool_input: toolInput,
      },
    };
  },
  rewriteAnswer: claudeRewrite,
  passAnswer: null,
  activeDenyAnswer: claudeDeny,
  otherTool: (e, cwd) => ({ ...e, tool_name: "Read", tool_input: { file_path: join(cwd, "README.md") } }),
  inputField: "tool_input",
  // SessionStart (new sessions and resumed ones), Claude Code's shape: hookSpecificOutput.additionalContext.
  sessionStart: {
    event: (cwd) => ({
      session_id: "d7f3a2c1-5e8b-4f96-a0d4-1b6c9e2f8a37",
      transcript_path: "/home/dev/.factory/sessions/d7f3a2c1.jsonl",
      cwd,
      permission_mode: "default",
      hook_event_name: "SessionStart",
      source: "startup",
    }),
    answer: claudeSessionAnswer,
    silent: null,
  },
};
