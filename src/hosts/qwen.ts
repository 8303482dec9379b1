// Qwen Code: a PreToolUse hook for its shell tool, `run_shell_command`, in
// settings.json. Qwen 0.24.4 runs the hook only for a call it has let run (its
// rules, its mode and its approval come first) and reads no `updatedInput`
// from its answer: it can only refuse. So Qwen gets deny-with-suggestion, as
// Kiro: exit 2 hands stderr to the model, which then runs `rtk …` in its
// place, and Qwen judges that call as any other. The suggestion is given only
// where Qwen runs the `rtk …` form unprompted too (its rules, read as Qwen reads
// them, and its mode, which the event names); elsewhere the command runs as
// typed. Its SessionStart (startup, resume, clear, compact) answers as Claude
// Code's.
import type { Part } from "../permissions/parts.js";
import { QWEN_RULES, qwenSegments } from "../permissions/qwen-rules.js";
import type { OwnAllow } from "../permissions/verdict.js";
import { claudeSession, decodeClaudeShape, preToolUseTarget } from "./claude.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, GATE_ANSWERS, gateAnswered, type Host, type OwnContext } from "./types.js";

/**
 * What Qwen Code runs unprompted with no rule naming it, in the event's mode:
 * in yolo every command its deny rules leave. In plan and auto modes it asks
 * about (or has its classifier judge) a command it cannot tell is read-only,
 * as an `rtk …` one is, whatever its allow rules say: nothing is suggested
 * there. In default and auto-edit modes only its allow rules count (its own
 * read-only list allows the command as typed, never its `rtk` form), as Qwen
 * matches them.
 */
function qwenOwn(ctx: OwnContext): OwnAllow | null {
  if (ctx.mode === "yolo") return { part: () => ({ allow: "Qwen Code runs every command in yolo mode" }) };
  if (ctx.mode === "plan" || ctx.mode === "auto") {
    const mode = ctx.mode;
    return { whole: () => `Qwen Code asks about an \`rtk …\` command in ${mode} mode (it cannot tell it is read-only)`, part: () => null };
  }
  return { whole: unreadPieces, part: () => null };
}

/**
 * Qwen matches its allow rules against the command's text cut at its operators
 * (qwenSegments), not against the commands in it: a piece that is not one of
 * the commands rtk reads (`{ rtk git status` of a group) meets no rule of the
 * form `rtk …`, and Qwen asks about it.
 */
function unreadPieces(_script: unknown, src: string, parts: readonly Part[]): string | null {
  const commands = new Set(parts.flatMap((p) => [p.text, src.slice(p.span.start, p.span.end).trim()]));
  const odd = qwenSegments(src).find((piece) => !commands.has(piece));
  return odd === undefined ? null : `Qwen Code matches its rules against \`${odd}\`, a piece of the command's text that is not one command`;
}

export const qwen: Host = {
  name: "qwen",
  title: "Qwen Code",
  tier: "gate",
  aliases: ["qwen-code"],
  rules: QWEN_RULES,
  // Qwen judges the `rtk …` call the model makes on the suggestion: the suggestion carries no allow.
  engine: { explicitAllow: false, own: (ctx) => qwenOwn(ctx) },
  hook: { decode: (event) => decodeClaudeShape(event, ["run_shell_command"]), ...GATE_ANSWERS },
  install: {
    // The matcher is a regular expression over the tool id; the timeout is in milliseconds.
    target: preToolUseTarget(10000, "^run_shell_command$"),
    scopes: dotFolder(".qwen", ["settings.json"]),
    defaultScope: "global",
    note: "Qwen Code cannot hand a changed command back to the model's call: where rtk has a compact form, the hook refuses the call and tells the model to run `rtk …` instead, which Qwen judges with its own rules. So the suggestion is made only where they let the `rtk` form run unprompted too: beside each `Shell(<command>)` in permissions.allow put `Shell(rtk <command>)` (in yolo mode it is made for every command no deny or ask rule names). Anything else runs as typed.",
  },
  session: claudeSession(10000),
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "run_shell_command", { permission_mode: "default", timestamp: "2026-12-03T00:00:00.000Z" }),
    answered: gateAnswered,
    allowing: (command) => ({ ".qwen/settings.json": JSON.stringify({ permissions: { allow: [`Shell(${command})`, `Shell(rtk ${command})`] } }) }),
  },
};
