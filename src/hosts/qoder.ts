// Qoder CLI: Claude Code-shaped PreToolUse hooks for its `Bash` tool, in
// settings.json. Its documentation gives a hook the power to block (exit 2,
// stderr reported back to the agent) but no way to replace a command, so it
// gets deny-with-suggestion, as Kiro.
import { NO_RULES } from "../permissions/sources.js";
import { decodeClaudeShape, preToolUseTarget } from "./claude.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, GATE_ANSWERS, gateAnswered, type Host } from "./types.js";

export const qoder: Host = {
  name: "qoder",
  title: "Qoder CLI",
  tier: "gate",
  rules: NO_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, ["Bash"]),
    ...GATE_ANSWERS,
  },
  install: {
    // The timeout is in seconds.
    target: preToolUseTarget(10),
    scopes: dotFolder(".qoder", ["settings.json"]),
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }),
    answered: gateAnswered,
  },
};
