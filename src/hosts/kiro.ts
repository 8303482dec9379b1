// Kiro cannot replace a command, so it gets deny-with-suggestion: exit 2 with
// the rtk form on stderr (Kiro shows it to the model, which re-issues it; that
// form is already rewritten, so there is no loop). Everything else: silence.
import { decodeClaudeShape, type ClaudeCtx } from "./claude.js";
import { SILENT, type HookAdapter } from "./types.js";

export const kiro: HookAdapter<ClaudeCtx> = {
  name: "kiro",
  title: "Kiro",
  rules: "none",
  decode(event) {
    // Kiro's own events are camelCase; the Claude-style name is accepted too.
    const e = event && typeof event === "object" && (event as Record<string, unknown>)["hook_event_name"] === "preToolUse" ? { ...(event as object), hook_event_name: "PreToolUse" } : event;
    return decodeClaudeShape(e, ["execute_bash", "executeBash", "shell"]);
  },
  encode(outcome) {
    switch (outcome.kind) {
      case "rewrite":
        if (outcome.ask) return SILENT;
        return { stdout: "", stderr: `rtk: run \`${outcome.command}\` instead (same command, compact output)`, exitCode: 2 };
      case "active-deny":
        return { stdout: "", stderr: outcome.reason, exitCode: 2 };
      default:
        return SILENT;
    }
  },
  passThrough: SILENT,
};
