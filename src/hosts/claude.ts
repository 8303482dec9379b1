// Claude Code: PreToolUse hook for the Bash tool. Also the answer shape of
// Copilot's Claude-style events and of Codex.
import { claudeExplicitAllow, claudeOwn } from "../permissions/claude-own.js";
import { CLAUDE_RULES, NO_RULES } from "../permissions/sources.js";
import { commandHook, dotFolder } from "./targets.js";
import {
  answerIn,
  claudeAllowing,
  claudeLikeSample,
  GATE_ANSWERS,
  gateAnswered,
  json,
  obj,
  SILENT,
  str,
  type Decoded,
  type HookAdapter,
  type HookAnswer,
  type Host,
  type HostDoctor,
  type JsonTarget,
  type SessionStart,
} from "./types.js";
import type { Outcome } from "../rewrite/outcome.js";

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
  return { command, cwd: str(e["cwd"]), mode: str(e["permission_mode"]), ctx: { toolInput } };
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

/**
 * A Claude-shaped settings file: our command in a matcher group under
 * `hooks.PreToolUse` (or `arrayPath`), for the tools `matcher` names (Codex's
 * hooks.json and the Claude-compatible hosts' files have the same shape).
 */
export function preToolUseTarget(timeout?: number, matcher = "Bash", arrayPath: readonly string[] = ["hooks", "PreToolUse"]): JsonTarget {
  return {
    kind: "json",
    arrayPath,
    skeleton: {},
    entries: (command: string) => [{ matcher, hooks: [commandHook(command, timeout)] }],
  };
}

/** The hook of a host that sends Claude Code's events for its shell tools `tools` and reads Claude Code's answers. */
export function claudeHook(tools: readonly string[]): HookAdapter<ClaudeCtx> {
  return {
    decode: (event) => decodeClaudeShape(event, tools),
    encode: (outcome, ctx) => claudeAnswer(outcome, ctx),
    passThrough: SILENT,
  };
}

/**
 * A gate (spec/hosts.md) whose hook gets Claude Code's events for its shell
 * tools `tools` and has no command rules of its own: it can only block, with
 * the `rtk …` form as the suggestion, and doctor looks for it on stderr.
 */
export function claudeGateHost(h: Pick<Host, "name" | "title" | "aliases" | "session"> & { tools: readonly string[]; install: NonNullable<Host["install"]>; sample: HostDoctor["sample"] }): Host {
  const { tools, sample, ...named } = h;
  return {
    ...named,
    tier: "gate",
    rules: NO_RULES,
    hook: { decode: (event) => decodeClaudeShape(event, tools), ...GATE_ANSWERS },
    doctor: { sample, answered: gateAnswered },
  };
}

/**
 * Claude Code's `SessionStart` (on startup, resume, /clear and after a
 * compaction, which drops what the session was told): `additionalContext` goes
 * into the model's context. Codex's is the same event with the same answer, and
 * so are the Claude-shaped hosts' (`arrayPath`: where their file keeps it).
 */
export function claudeSession(timeout?: number, arrayPath: readonly string[] = ["hooks", "SessionStart"]): SessionStart {
  return {
    arrayPath,
    entries: (command) => [{ hooks: [commandHook(command, timeout)] }],
    is: (e) => e["hook_event_name"] === "SessionStart",
    answer: (text) => json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } }),
    silent: SILENT,
    sample: (cwd) => JSON.stringify({ session_id: "rtk-doctor", transcript_path: "/dev/null", cwd, hook_event_name: "SessionStart", source: "startup" }),
  };
}

export const claude: Host = {
  name: "claude",
  title: "Claude Code",
  tier: "hook",
  aliases: ["claude-code"],
  rules: CLAUDE_RULES,
  hook: claudeHook(["Bash"]),
  engine: { explicitAllow: claudeExplicitAllow, own: claudeOwn },
  install: {
    target: preToolUseTarget(10),
    scopes: dotFolder(".claude", ["settings.json"], "CLAUDE_CONFIG_DIR"),
    defaultScope: "global",
  },
  session: claudeSession(10),
  doctor: { sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }), allowing: claudeAllowing },
};
