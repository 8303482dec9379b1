// Factory's Droid: a PreToolUse hook for its shell tool, `Execute`, in Claude
// Code's event and answer shapes. Droid applies `updatedInput` whatever the
// decision, so a rewrite asserts no permission unless the host's rules earned
// one; its rules are deny lists only (commandDenylist), which see the command as
// typed: a command they name is left to Droid unchanged. Its SessionStart
// (new sessions and resumed ones) answers as Claude Code's.
import { join } from "node:path";
import { FACTORY_RULES } from "../permissions/sources.js";
import { claudeHook, claudeSession, preToolUseTarget } from "./claude.js";
import { home, project } from "./targets.js";
import { claudeLikeSample, type Host } from "./types.js";

const SHELL_TOOLS = ["Execute"];

export const factory: Host = {
  name: "factory",
  title: "Factory Droid",
  tier: "hook",
  aliases: ["droid"],
  rules: FACTORY_RULES,
  hook: claudeHook(SHELL_TOOLS),
  install: {
    // Droid's hook files sit beside its settings and are keyed by event name (a `hooks` key in settings.json is read only when there is no hooks.json).
    target: preToolUseTarget(10, SHELL_TOOLS.join("|"), ["PreToolUse"]),
    scopes: {
      global: (w) => join(home(w), ".factory", "hooks.json"),
      project: (w) => join(project(w, ".factory"), ".factory", "hooks.json"),
    },
    defaultScope: "global",
  },
  session: claudeSession(10, ["SessionStart"]),
  doctor: { sample: (command, cwd) => claudeLikeSample(command, cwd, "Execute", { permission_mode: "default" }) },
};
