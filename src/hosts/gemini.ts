// Gemini CLI: BeforeTool hook for run_shell_command. Gemini applies the hook's
// `tool_input` in place of the call's arguments and then judges that command
// with its policy engine (0.61.0; the answer has no allow to give): a rewrite is
// handed back only where Gemini's own rules allow both the command as typed and
// its `rtk …` form (gemini-rules.ts), so that Gemini runs the one it would have
// run. `{}` means no opinion: Gemini judges the command as typed.
import { geminiDecide } from "../permissions/gemini-match.js";
import { GEMINI_RULES } from "../permissions/gemini-rules.js";
import type { OwnAllow, RuleSet } from "../permissions/verdict.js";
import { commandHook, dotFolder } from "./targets.js";
import { answers, json, obj, str, type Host, type SessionStart } from "./types.js";

const EMPTY = json({});

/** Gemini CLI's `SessionStart` (startup, resume, /clear): `additionalContext` goes into the model's context. */
const GEMINI_SESSION: SessionStart = {
  arrayPath: ["hooks", "SessionStart"],
  entries: (command) => [{ hooks: [commandHook(command, 10000)] }],
  is: (e) => e["hook_event_name"] === "SessionStart",
  answer: (text) => json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } }),
  silent: EMPTY,
  sample: (cwd) => JSON.stringify({ session_id: "rtk-doctor", transcript_path: "/dev/null", cwd, hook_event_name: "SessionStart", timestamp: new Date(0).toISOString(), source: "startup" }),
};

/**
 * What Gemini decides of a command as a whole, before its parts: its rules meet
 * the whole text first, and unless one allows it (`git status; git log` starts
 * with no allowed prefix: `;` is no boundary), the command is refused whatever
 * its parts. And it asks about a command with a redirection unless a rule allows
 * that (`allowRedirection`) or the mode is auto_edit or yolo, which rtk cannot
 * see (a `<` or `>` anywhere is enough here).
 */
function geminiOwn(rules: RuleSet): OwnAllow {
  return {
    whole(_script, src) {
      if (/[<>]/.test(src)) return "Gemini CLI asks about a command with a redirection (outside auto_edit and yolo modes)";
      const decided = rules.gemini ? geminiDecide(rules.gemini, src) : null;
      if (decided?.decision !== "allow") return `Gemini CLI's rules meet the whole command first, and none allows it${decided ? ` (${decided.rule})` : ""}`;
      return null;
    },
    part: () => null,
  };
}

export const gemini: Host = {
  name: "gemini",
  title: "Gemini CLI",
  tier: "hook",
  rules: GEMINI_RULES,
  engine: { explicitAllow: false, own: (_ctx, rules) => geminiOwn(rules) },
  hook: {
    decode(event) {
      const e = obj(event);
      if (!e || str(e["tool_name"]) !== "run_shell_command") return null;
      const ev = str(e["hook_event_name"]);
      if (ev !== undefined && ev !== "BeforeTool") return null;
      const input = obj(e["tool_input"]);
      const command = str(input?.["command"]);
      if (!input || command === undefined) return null;
      return { command, cwd: str(e["cwd"]), ctx: input };
    },
    ...answers<Record<string, unknown>>(
      {
        rewrite(outcome, input) {
          if (outcome.ask) return EMPTY;
          // The hook's `tool_input` replaces the call's arguments whole: the others (`dir_path`, the description) go back as they came.
          return json({ hookSpecificOutput: { tool_input: { ...input, command: outcome.command } } });
        },
        deny: (reason) => json({ decision: "deny", reason }),
      },
      EMPTY,
    ),
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "BeforeTool"],
      skeleton: {},
      entries: (command) => [{ matcher: "run_shell_command", hooks: [commandHook(command, 10000)] }],
    },
    scopes: dotFolder(".gemini", ["settings.json"]),
    defaultScope: "global",
    note: "Gemini CLI judges the command rtk hands back with its own rules: a command is rewritten where they allow it and its `rtk` form, so beside each `run_shell_command(<command>)` in tools.allowed put `run_shell_command(rtk <command>)`. Anything else runs as typed.",
  },
  session: GEMINI_SESSION,
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command }, cwd }),
    allowing: (command) => ({ ".gemini/settings.json": JSON.stringify({ tools: { allowed: [`run_shell_command(${command})`, `run_shell_command(rtk ${command})`] } }) }),
  },
};
