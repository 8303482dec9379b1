// Factory's Droid: a PreToolUse hook for its shell tool, `Execute`, in Claude
// Code's event and answer shapes. Droid applies `updatedInput` whatever the
// decision, so a rewrite asserts no permission unless the host's rules earned
// one; its rules are deny lists only (commandDenylist), which see the command as
// typed: a command they name is left to Droid unchanged.
import { join } from "node:path";
import { FACTORY_RULES } from "../permissions/sources.js";
import { claudeAnswer, decodeClaudeShape, type ClaudeCtx } from "./claude.js";
import { commandHook, home, project } from "./targets.js";
import { claudeLikeSample, SILENT, type Host } from "./types.js";

const SHELL_TOOLS = ["Execute"];

export const factory: Host = {
  name: "factory",
  title: "Factory Droid",
  tier: "hook",
  aliases: ["droid"],
  rules: FACTORY_RULES,
  hook: {
    decode: (event) => decodeClaudeShape(event, SHELL_TOOLS),
    encode: (outcome, ctx: ClaudeCtx) => claudeAnswer(outcome, ctx),
    passThrough: SILENT,
  },
  install: {
    // Droid's hook files sit beside its settings and are keyed by event name (a `hooks` key in settings.json is read only when there is no hooks.json).
    target: {
      kind: "json",
      arrayPath: ["PreToolUse"],
      skeleton: {},
      entries: (command) => [{ matcher: SHELL_TOOLS.join("|"), hooks: [commandHook(command, 10)] }],
    },
    scopes: {
      global: (w) => join(home(w), ".factory", "hooks.json"),
      project: (w) => join(project(w, ".factory"), ".factory", "hooks.json"),
    },
    defaultScope: "global",
  },
  doctor: { sample: (command, cwd) => claudeLikeSample(command, cwd, "Execute", { permission_mode: "default" }) },
};
