// Kimi Code CLI: a PreToolUse hook for its `Bash` tool. Kimi can let a command
// through or block it (exit 2, stderr returned to the model) but documents no
// way to replace it, so it gets deny-with-suggestion as Kiro does: the model
// re-issues the `rtk …` form, which is already rewritten (no loop). Its hooks are
// `[[hooks]]` tables in config.toml, which allow only documented fields.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { decodeClaudeShape } from "./claude.js";
import { home } from "./targets.js";
import { GATE_ANSWERS, gateAnswered, type Host } from "./types.js";

const SHELL_TOOLS = ["Bash"];

export const kimi: Host = {
  name: "kimi",
  title: "Kimi Code",
  tier: "gate",
  aliases: ["kimi-code"],
  rules: NO_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, SHELL_TOOLS),
    ...GATE_ANSWERS,
  },
  install: {
    target: {
      kind: "toml",
      arrayKey: "hooks",
      tables: (command) => `[[hooks]]\nevent = "PreToolUse"\nmatcher = "^Bash$"\ncommand = ${JSON.stringify(command)}\ntimeout = 10\n`,
    },
    scopes: { global: (w) => join(home(w), ".kimi-code", "config.toml") },
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "PreToolUse", session_id: "rtk-doctor", cwd, tool_name: "Bash", tool_input: { command }, tool_call_id: "rtk-doctor" }),
    answered: gateAnswered,
  },
};
