// Continue's CLI (`cn`): Claude Code-compatible hooks in Continue's settings.json
// (it also runs Claude Code's). The shell tool is `Bash`, and a PreToolUse hook
// may hand back `updatedInput`; rtk gives no permission decision, so Continue's
// own permissions judge the replaced command, and rtk reads them (CONTINUE_RULES)
// so that none of them is bypassed by the `rtk` prefix.
import { CONTINUE_RULES } from "../permissions/sources.js";
import { claudeHook, preToolUseTarget } from "./claude.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, type Host } from "./types.js";

export const continueCli: Host = {
  name: "continue",
  title: "Continue CLI (cn)",
  tier: "hook",
  aliases: ["cn"],
  rules: CONTINUE_RULES,
  // Continue's own permissions judge the replaced command: the rewritten form must be allowed by its rules too.
  engine: { explicitAllow: false },
  hook: claudeHook(["Bash"]),
  install: {
    target: preToolUseTarget(10, "^Bash$"),
    scopes: dotFolder(".continue", ["settings.json"]),
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }),
    // The command and its `rtk` form: Continue judges the replaced command too.
    allowing: (command) => ({ ".continue/permissions.yaml": `allow:\n  - ${JSON.stringify(`Bash(${command})`)}\n  - ${JSON.stringify(`Bash(rtk ${command})`)}\n` }),
  },
};
