// Qwen Code: a PreToolUse hook for its shell tool, `run_shell_command`, in
// settings.json. Its answer replaces a tool's input (`updatedInput`) only
// together with a permission decision, which its documentation makes required,
// and rtk earns none ("ask" would stop a headless run), so Qwen gets
// deny-with-suggestion, as Kiro: exit 2 hands stderr to the model. Its
// SessionStart (startup, resume, clear, compact) answers as Claude Code's.
import { claudeGateHost, claudeSession, preToolUseTarget } from "./claude.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, type Host } from "./types.js";

export const qwen: Host = claudeGateHost({
  name: "qwen",
  title: "Qwen Code",
  aliases: ["qwen-code"],
  tools: ["run_shell_command"],
  install: {
    // The matcher is a regular expression over the tool id; the timeout is in milliseconds.
    target: preToolUseTarget(10000, "^run_shell_command$"),
    scopes: dotFolder(".qwen", ["settings.json"]),
    defaultScope: "global",
  },
  session: claudeSession(10000),
  sample: (command, cwd) => claudeLikeSample(command, cwd, "run_shell_command", { permission_mode: "default", timestamp: "2026-12-03T00:00:00.000Z" }),
});
