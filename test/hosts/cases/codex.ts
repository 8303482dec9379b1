import { claudeDeny, claudeRewrite, claudeSessionAnswer, type HostCase } from "./types.js";

export const codex: HostCase = {
  id: "codex",
  cli: "codex",
  readOnlyByItself: true,
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command };
    return {
      toolInput,
      event: {
        session_id: "019a3c5e-8f2d-7b41-a9e6-3c0d5f7e2b18",
        transcript_path: "/home/dev/.codex/sessions/2026/01/15/rollout-2026-01-15T10-04-12-019a3c5e.jsonl",
        cwd,
        hook_event_name: "PreToolUse",
        model: "gpt-5.1-codex",
        turn_id: "019a3c5e-9a01-7c22-b3d4-5e6f7a8b9c0d",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: toolInput,
        tool_use_id: "call_Zx9Yw8Vu7Ts6Rq5P",
      },
    };
  },
  // Codex applies a replacement only with an explicit allow: every rewrite is rewrite+allow.
  rewriteAnswer: (command, _allow, toolInput) => claudeRewrite(command, true, toolInput),
  passAnswer: null,
  activeDenyAnswer: claudeDeny,
  // apply_patch carries its patch in tool_input.command: it is not a shell command.
  otherTool: (e) => ({ ...e, tool_name: "apply_patch", tool_input: { command: "git status" } }),
  inputField: "tool_input",
  // SessionStart (source startup or resume): Claude's answer shape.
  sessionStart: {
    event: (cwd) => ({
      session_id: "019a3c5e-8f2d-7b41-a9e6-3c0d5f7e2b18",
      transcript_path: "/home/dev/.codex/sessions/2026/01/15/rollout-2026-01-15T10-04-12-019a3c5e.jsonl",
      cwd,
      hook_event_name: "SessionStart",
      model: "gpt-5.1-codex",
      permission_mode: "default",
      source: "startup",
    }),
    answer: claudeSessionAnswer,
    silent: null,
  },
};
