// Claude Code: PreToolUse hook for the Bash tool. Also the answer shape of
// Copilot's Claude-style events and of Codex.
import { CLAUDE_RULES } from "../permissions/sources.js";
import { commandHook, dotFolder } from "./targets.js";
import { answerIn, claudeLikeSample, json, obj, SILENT, str, type Decoded, type Host, type HookAnswer, type Outcome } from "./types.js";

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

/** Claude Code's deny, with the reason the model reads. */
export function claudeDeny(reason: string): HookAnswer {
  return json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } });
}

export function claudeAnswer(outcome: Outcome, ctx: ClaudeCtx, allowAlways = false): HookAnswer {
  return answerIn(outcome, ctx, {
    rewrite(outcome, ctx) {
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
    },
    deny: claudeDeny,
  });
}

/** A Claude-shaped settings file: our command under `hooks.PreToolUse`, for the Bash tool (Codex's hooks.json has the same shape). */
export function preToolUseTarget(timeout?: number) {
  return {
    kind: "json" as const,
    arrayPath: ["hooks", "PreToolUse"],
    skeleton: {},
    entries: (command: string) => [{ matcher: "Bash", hooks: [commandHook(command, timeout)] }],
  };
}

export const claude: Host = {
  name: "claude",
  title: "Claude Code",
  tier: "hook",
  aliases: ["claude-code"],
  rules: CLAUDE_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, ["Bash"]),
    encode: (outcome, ctx: ClaudeCtx) => claudeAnswer(outcome, ctx),
    passThrough: SILENT,
  },
  install: {
    target: preToolUseTarget(10),
    scopes: dotFolder(".claude", ["settings.json"], "CLAUDE_CONFIG_DIR"),
    defaultScope: "global",
  },
  doctor: { sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash") },
};
