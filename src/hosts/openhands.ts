// OpenHands (its CLI, local GUI and Cloud): a repository's .openhands/hooks.json,
// Claude Code-compatible in its exit codes. Its PreToolUse event names the shell
// tool `terminal` and the folder `working_dir`; a hook can let a call through or
// block it (exit 2: its stderr, or its JSON `reason`, comes back to the model as
// the call's result, "Action rejected: …") but not replace it, so a rewrite is a
// suggestion, as for Kiro. A terminal call with `is_input` types into the
// process the terminal runs (`C-c`, an answer to a prompt): no command, left
// alone. OpenHands has no command rules (its confirmation modes approve every
// action, ask about every one, or ask where an LLM rates it risky): nothing for
// the suggested `rtk …` to slip past.
import type { Env } from "../config/hooks.js";
import { NO_RULES } from "../permissions/sources.js";
import { commandHook, dotFolder } from "./targets.js";
import { gateAnswered, GATE_ANSWERS, obj, str, type Decoded, type Host } from "./types.js";

function decode(event: unknown, env: Env): Decoded<null> | null {
  const e = obj(event);
  const input = obj(e?.["tool_input"]);
  const command = str(input?.["command"]);
  if (!e || str(e["tool_name"]) !== "terminal" || !input || command === undefined || input["is_input"] === true) return null;
  const kind = str(e["event_type"]);
  if (kind !== undefined && kind !== "PreToolUse") return null;
  return { command, cwd: str(e["working_dir"]) ?? env["OPENHANDS_PROJECT_DIR"], ctx: null };
}

/**
 * OpenHands reads hooks.json in three shapes: snake_case events at the top (its
 * documented one, rtk's), Claude Code's `{"hooks": {…}}` (then every other key
 * is ignored), or PascalCase events at the top (an event named both ways makes
 * it refuse the whole file).
 */
function unfit(settings: Record<string, unknown>): string | null {
  if ("hooks" in settings)
    return "its events are inside `hooks` (Claude Code's shape), where OpenHands ignores a `pre_tool_use` beside them: write them as top-level snake_case keys (`pre_tool_use`, `stop`, …), OpenHands' documented shape, and run `rtk init` again";
  if ("PreToolUse" in settings)
    return "it names the event `PreToolUse`, and OpenHands refuses a file that names one event twice: rename it `pre_tool_use`, OpenHands' documented name, and run `rtk init` again";
  return null;
}

export const openhands: Host = {
  name: "openhands",
  title: "OpenHands",
  tier: "gate",
  hook: { decode, ...GATE_ANSWERS },
  rules: NO_RULES,
  install: {
    target: { kind: "json", arrayPath: ["pre_tool_use"], skeleton: {}, entries: (command) => [{ matcher: "terminal", hooks: [commandHook(command, 10)] }], unfit },
    // The repository's file is the one every OpenHands reads. The CLI also reads
    // ~/.openhands/hooks.json, but only in a folder without a file of its own
    // (the first of the two it finds, not both), and Cloud and the GUI never do.
    scopes: dotFolder(".openhands", ["hooks.json"]),
    defaultScope: "project",
    note: "OpenHands (Cloud, the local GUI, the CLI) reads the .openhands/hooks.json of the folder it works in; only the CLI reads ~/.openhands/hooks.json, and only where that folder has none.",
  },
  doctor: {
    sample: (command, cwd) =>
      JSON.stringify({
        event_type: "PreToolUse",
        tool_name: "terminal",
        tool_input: { command, is_input: false, timeout: null, reset: false, kind: "TerminalAction" },
        session_id: "rtk-doctor",
        working_dir: cwd,
      }),
    answered: gateAnswered,
  },
};
