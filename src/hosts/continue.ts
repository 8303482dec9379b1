// Continue's CLI (`cn`): Claude Code-compatible hooks in Continue's settings.json
// (it also reads Claude Code's), as its documentation describes them. The shell
// tool is `Bash`, and a PreToolUse hook may hand back `updatedInput`; rtk gives
// no permission decision, so Continue's own permissions judge the replaced
// command, and rtk reads them (CONTINUE_RULES) so that none of them is bypassed
// by the `rtk` prefix. cn 1.5.47 loads the hooks but runs none of them
// (test/hosts-real/continue.real.ts): the entry waits for a release that does.
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
    note: "Continue CLI 1.5.47 reads this hook but does not run hooks yet: its commands run as typed until a release of cn runs them.",
  },
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }),
    // The command and its `rtk` form: Continue judges the replaced command too.
    allowing: (command) => ({ ".continue/permissions.yaml": `allow:\n  - ${JSON.stringify(`Bash(${command})`)}\n  - ${JSON.stringify(`Bash(rtk ${command})`)}\n` }),
  },
};
