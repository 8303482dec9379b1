// Codex CLI: Claude-shaped PreToolUse events with a permission_mode. Codex
// applies a replacement only together with an explicit allow, then runs its own
// approval and sandbox checks on it, so every rewrite answers as an allow. Those
// checks see the replacement: a command one of Codex's own rules forbids or
// prompts for is left to Codex as typed (no answer), since `rtk …` would match
// none of them.
import { Budget, parse } from "../../grammar/parse.js";
import type { Env } from "../config/hooks.js";
import { codexRules } from "../permissions/codex-rules.js";
import { judge } from "../permissions/verdict.js";
import { COMMAND_LIMITS, longerThan } from "../rewrite/limits.js";
import { claudeAnswer, decodeClaudeShape, type ClaudeCtx } from "./claude.js";
import { SILENT, str, obj, type HookAdapter } from "./types.js";

const PERMISSION_MODES = new Set([
  "default", "plan", "acceptEdits", "dontAsk", "bypassPermissions", "untrusted", "on-failure", "on-request", "never",
]);

export const codex: HookAdapter<ClaudeCtx> = {
  name: "codex",
  title: "Codex CLI",
  rules: "claude",
  decode(event, env) {
    const mode = str(obj(event)?.["permission_mode"]);
    if (mode === undefined || !PERMISSION_MODES.has(mode)) return null;
    const decoded = decodeClaudeShape(event, ["Bash", "shell", "exec_command"]);
    return decoded && !restrictedByCodex(decoded.command, decoded.cwd ?? process.cwd(), env) ? decoded : null;
  },
  encode: (outcome, ctx) => claudeAnswer(outcome, ctx, true),
  passThrough: SILENT,
};

/** Whether one of Codex's own rules forbids or prompts for the command (or a part of it). */
function restrictedByCodex(command: string, cwd: string, env: Env): boolean {
  const rules = codexRules(cwd, env);
  if (!rules.deny.length && !rules.ask.length) return false;
  // One past the rewrite's limits is not rewritten either: left to Codex now, it is not read twice.
  if (longerThan(command, COMMAND_LIMITS.maxBytes)) return true;
  const parsed = parse(command, { budget: Budget.of(COMMAND_LIMITS.timeMs) });
  // A command rtk cannot read is not rewritten anyway.
  if (!parsed.ok) return parsed.error.limit !== undefined;
  const verdict = judge(parsed.script, command, rules).verdict;
  return verdict === "deny" || verdict === "ask";
}
