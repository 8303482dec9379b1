// Claude Code: PreToolUse hook for the Bash tool. Also the answer shape of
// Copilot's Claude-style events and of Codex.
import { json, obj, SILENT, str, type Decoded, type HookAdapter, type HookAnswer, type Outcome } from "./types.js";

export const REWRITE_REASON = "rtk: token-optimised rewrite";

export interface ClaudeCtx {
  toolInput: Record<string, unknown>;
}

/** The Claude-shaped event of a shell tool: `{tool_name, tool_input: {command}, cwd}`. */
export function decodeClaudeShape(event: unknown, toolNames: readonly string[]): Decoded<ClaudeCtx> | null {
  const e = obj(event);
  const name = str(e?.["tool_name"]);
  const toolInput = obj(e?.["tool_input"]);
  const command = str(toolInput?.["command"]);
  if (!e || !name || !toolNames.includes(name) || !toolInput || command === undefined) return null;
  const event_ = str(e["hook_event_name"]);
  if (event_ !== undefined && event_ !== "PreToolUse") return null;
  return { command, cwd: str(e["cwd"]), ctx: { toolInput } };
}

export function claudeAnswer(outcome: Outcome, ctx: ClaudeCtx, allowAlways = false): HookAnswer {
  switch (outcome.kind) {
    case "rewrite": {
      // A host that applies a rewrite only with an allow cannot be told to ask: it judges the command as typed.
      if (outcome.ask && allowAlways) return SILENT;
      const decision = outcome.ask ? "ask" : outcome.allow || allowAlways ? "allow" : null;
      return json({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          ...(decision ? { permissionDecision: decision } : {}),
          permissionDecisionReason: REWRITE_REASON,
          updatedInput: { ...ctx.toolInput, command: outcome.command },
        },
      });
    }
    case "active-deny":
      return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: outcome.reason } });
    case "defer-deny":
    case "pass":
      return SILENT;
  }
}

export const claude: HookAdapter<ClaudeCtx> = {
  name: "claude",
  title: "Claude Code",
  rules: "claude",
  decode: (event) => decodeClaudeShape(event, ["Bash"]),
  encode: (outcome, ctx) => claudeAnswer(outcome, ctx),
  passThrough: SILENT,
};
