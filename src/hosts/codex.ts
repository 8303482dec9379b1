// Codex CLI: Claude-shaped PreToolUse events with a permission_mode. Codex
// applies a replacement only together with an explicit allow, then runs its own
// approval and sandbox checks on it, so every rewrite answers as an allow.
import { claudeAnswer, decodeClaudeShape, type ClaudeCtx } from "./claude.js";
import { SILENT, str, obj, type HookAdapter } from "./types.js";

const PERMISSION_MODES = new Set([
  "default", "plan", "acceptEdits", "dontAsk", "bypassPermissions", "untrusted", "on-failure", "on-request", "never",
]);

export const codex: HookAdapter<ClaudeCtx> = {
  name: "codex",
  title: "Codex CLI",
  rules: "claude",
  decode(event) {
    const mode = str(obj(event)?.["permission_mode"]);
    if (mode === undefined || !PERMISSION_MODES.has(mode)) return null;
    return decodeClaudeShape(event, ["Bash", "shell", "exec_command"]);
  },
  encode: (outcome, ctx) => claudeAnswer(outcome, ctx, true),
  passThrough: SILENT,
};
