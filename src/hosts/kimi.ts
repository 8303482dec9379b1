// Kimi Code CLI: a PreToolUse hook for its `Bash` tool. Kimi can let a command
// through or block it (exit 2, stderr returned to the model) but documents no
// way to replace it, so it gets deny-with-suggestion as Kiro does: the model
// re-issues the `rtk …` form, which is already rewritten (no loop). Its hooks are
// `[[hooks]]` tables in config.toml, which allow only documented fields.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { decodeClaudeShape, type ClaudeCtx } from "./claude.js";
import { home } from "./targets.js";
import { SILENT, type Host } from "./types.js";

const SHELL_TOOLS = ["Bash"];

export const kimi: Host = {
  name: "kimi",
  title: "Kimi Code",
  tier: "gate",
  aliases: ["kimi-code"],
  rules: NO_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, SHELL_TOOLS),
    encode(outcome, _ctx: ClaudeCtx) {
      switch (outcome.kind) {
        case "rewrite":
          if (outcome.ask) return SILENT;
          return { stdout: "", stderr: `rtk: run \`${outcome.command}\` instead (same command, compact output)`, exitCode: 2 };
        case "active-deny":
          return { stdout: "", stderr: outcome.reason, exitCode: 2 };
        default:
          return SILENT;
      }
    },
    passThrough: SILENT,
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
    answered: (run, rewritten) => run.status === 2 && run.stderr.includes(rewritten),
  },
};
