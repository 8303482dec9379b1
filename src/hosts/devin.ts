// Devin for Terminal (Devin CLI): Claude Code-compatible hooks. The shell tool is
// `exec`; its event carries no `cwd` (Devin names the project in
// DEVIN_PROJECT_DIR), and the answer is Claude Code's, `updatedInput` included.
// Devin reads Claude Code's settings, so Claude Code's rules are its rules.
import { join } from "node:path";
import { CLAUDE_SETTINGS_RULES } from "../permissions/sources.js";
import { claudeAnswer, decodeClaudeShape, preToolUseTarget, type ClaudeCtx } from "./claude.js";
import { configHome } from "./targets.js";
import { SILENT, type Host } from "./types.js";

const SHELL_TOOLS = ["exec"];

export const devin: Host = {
  name: "devin",
  title: "Devin for Terminal",
  tier: "hook",
  rules: CLAUDE_SETTINGS_RULES,
  hook: {
    decode(event, env) {
      const d = decodeClaudeShape(event, SHELL_TOOLS);
      return d && d.cwd === undefined && env["DEVIN_PROJECT_DIR"] ? { ...d, cwd: env["DEVIN_PROJECT_DIR"] } : d;
    },
    encode: (outcome, ctx: ClaudeCtx) => claudeAnswer(outcome, ctx),
    passThrough: SILENT,
  },
  install: {
    // The user's hooks live under the `hooks` key of Devin's config.json; a project's .devin/hooks.v1.json has another layout, which rtk does not write.
    target: preToolUseTarget(10, SHELL_TOOLS.join("|")),
    scopes: { global: (w) => join(configHome(w), "devin", "config.json") },
    defaultScope: "global",
  },
  doctor: {
    sample: (command) => JSON.stringify({ session_id: "rtk-doctor", hook_event_name: "PreToolUse", tool_name: "exec", tool_input: { command, shell_id: "main" } }),
  },
};
