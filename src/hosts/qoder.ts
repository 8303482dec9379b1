// Qoder CLI: Claude Code-shaped PreToolUse hooks for its `Bash` tool, in
// settings.json. Its documentation gives a hook the power to block (exit 2,
// stderr reported back to the agent) but no way to replace a command, so it
// gets deny-with-suggestion, as Kiro. A SessionStart hook's plain stdout is
// added to the session's context.
import { claudeGateHost, claudeSession, preToolUseTarget } from "./claude.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, plainText, type Host } from "./types.js";

export const qoder: Host = claudeGateHost({
  name: "qoder",
  title: "Qoder CLI",
  tools: ["Bash"],
  install: {
    // The timeout is in seconds.
    target: preToolUseTarget(10),
    scopes: dotFolder(".qoder", ["settings.json"]),
    defaultScope: "global",
  },
  session: { ...claudeSession(10), answer: plainText },
  sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }),
});
