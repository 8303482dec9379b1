// Kiro cannot replace a command, so it gets deny-with-suggestion: exit 2 with
// the rtk form on stderr (Kiro shows it to the model, which re-issues it; that
// form is already rewritten, so there is no loop). Everything else: silence.
// A command hook's stdout at exit 0 goes into the agent's context, so its
// SessionStart entry answers with the text alone.
import { decodeClaudeShape } from "./claude.js";
import { NO_RULES } from "../permissions/sources.js";
import { dotFolder } from "./targets.js";
import { GATE_ANSWERS, gateAnswered, obj, plainText, SILENT, type Host, type SessionStart } from "./types.js";

const SHELL_TOOLS = ["execute_bash", "executeBash", "shell"];

/** Which of rtk's entries in the hook file's one list an entry is: they are told apart by their trigger. */
const trigger = (name: string) => (entry: unknown) => obj(entry)?.["trigger"] === name;

/** Kiro CLI's `SessionStart` trigger (the agent configurations' older `agentSpawn`), in the same hook file as the command hook. */
const SESSION: SessionStart = {
  arrayPath: ["hooks"],
  entries: (command) => [{ name: "rtk-context", trigger: "SessionStart", action: { type: "command", command }, timeout: 5 }],
  owns: trigger("SessionStart"),
  is: (e) => e["hook_event_name"] === "SessionStart" || e["hook_event_name"] === "agentSpawn",
  answer: plainText,
  silent: SILENT,
  sample: (cwd) => JSON.stringify({ hook_event_name: "SessionStart", cwd }),
};

export const kiro: Host = {
  name: "kiro",
  title: "Kiro",
  tier: "gate",
  rules: NO_RULES,
  hook: {
    decode(event) {
      // Kiro's own events are camelCase; the Claude-style name is accepted too.
      const e = event && typeof event === "object" && (event as Record<string, unknown>)["hook_event_name"] === "preToolUse" ? { ...(event as object), hook_event_name: "PreToolUse" } : event;
      return decodeClaudeShape(e, SHELL_TOOLS);
    },
    ...GATE_ANSWERS,
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks"],
      skeleton: { version: "v1" },
      // Kiro CLI's hook files (.kiro/hooks/<name>.json): the matcher is a regular expression over the tool name, the timeout in seconds.
      entries: (command) => [{ name: "rtk", trigger: "PreToolUse", matcher: SHELL_TOOLS.join("|"), action: { type: "command", command }, timeout: 5 }],
      owns: trigger("PreToolUse"),
    },
    scopes: dotFolder(".kiro", ["hooks", "rtk.json"]),
    defaultScope: "global",
  },
  session: SESSION,
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "execute_bash", tool_input: { command }, cwd }),
    answered: gateAnswered,
  },
};
