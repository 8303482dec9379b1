// Kimi Code CLI: a PreToolUse hook for its `Bash` tool. Kimi can let a command
// through or block it (exit 2, stderr returned to the model) but documents no
// way to replace it, so it gets deny-with-suggestion as Kiro does: the model
// re-issues the `rtk …` form, which is already rewritten (no loop). Its hooks are
// `[[hooks]]` tables in config.toml, which allow only documented fields.
import { join } from "node:path";
import { claudeGateHost } from "./claude.js";
import { home } from "./targets.js";
import type { Host } from "./types.js";

export const kimi: Host = claudeGateHost({
  name: "kimi",
  title: "Kimi Code",
  aliases: ["kimi-code"],
  tools: ["Bash"],
  install: {
    target: {
      kind: "toml",
      arrayKey: "hooks",
      tables: (command) => `[[hooks]]\nevent = "PreToolUse"\nmatcher = "^Bash$"\ncommand = ${JSON.stringify(command)}\ntimeout = 10\n`,
    },
    scopes: { global: (w) => join(home(w), ".kimi-code", "config.toml") },
    defaultScope: "global",
  },
  sample: (command, cwd) => JSON.stringify({ hook_event_name: "PreToolUse", session_id: "rtk-doctor", cwd, tool_name: "Bash", tool_input: { command }, tool_call_id: "rtk-doctor" }),
});
