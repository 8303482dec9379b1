// Qwen Code: a PreToolUse hook for its shell tool, `run_shell_command`, in
// settings.json. Its answer replaces a tool's input (`updatedInput`) only
// together with a permission decision, which its documentation makes required,
// and rtk earns none ("ask" would stop a headless run), so Qwen gets
// deny-with-suggestion, as Kiro: exit 2 hands stderr to the model.
import { NO_RULES } from "../permissions/sources.js";
import { decodeClaudeShape } from "./claude.js";
import { commandHook, dotFolder } from "./targets.js";
import { claudeLikeSample, GATE_ANSWERS, gateAnswered, type Host } from "./types.js";

const SHELL_TOOLS = ["run_shell_command"];

export const qwen: Host = {
  name: "qwen",
  title: "Qwen Code",
  tier: "gate",
  aliases: ["qwen-code"],
  rules: NO_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, SHELL_TOOLS),
    ...GATE_ANSWERS,
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: {},
      // The matcher is a regular expression over the tool id; the timeout is in milliseconds.
      entries: (command) => [{ matcher: `^${SHELL_TOOLS[0]}$`, hooks: [commandHook(command, 10000)] }],
    },
    scopes: dotFolder(".qwen", ["settings.json"]),
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "run_shell_command", { permission_mode: "default", timestamp: "2026-12-03T00:00:00.000Z" }),
    answered: gateAnswered,
  },
};
