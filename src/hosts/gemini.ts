// Gemini CLI: BeforeTool hook for run_shell_command. `{}` means no opinion;
// an allow is given only when the host's rules earned it, so that Gemini's own
// confirmation policy still runs on the rewritten command otherwise.
import { json, obj, str, type HookAdapter } from "./types.js";

const EMPTY = json({});

export const gemini: HookAdapter<null> = {
  name: "gemini",
  title: "Gemini CLI",
  rules: "gemini",
  decode(event) {
    const e = obj(event);
    if (!e || str(e["tool_name"]) !== "run_shell_command") return null;
    const ev = str(e["hook_event_name"]);
    if (ev !== undefined && ev !== "BeforeTool") return null;
    const command = str(obj(e["tool_input"])?.["command"]);
    if (command === undefined) return null;
    return { command, cwd: str(e["cwd"]), ctx: null };
  },
  encode(outcome) {
    switch (outcome.kind) {
      case "rewrite": {
        // Gemini's confirmation rules would see `rtk …`, which none of them names: Gemini judges the command as typed.
        if (outcome.ask) return json({});
        const out = { hookSpecificOutput: { tool_input: { command: outcome.command } } };
        return json(outcome.allow ? { decision: "allow", ...out } : out);
      }
      case "active-deny":
        return json({ decision: "deny", reason: outcome.reason });
      default:
        return EMPTY;
    }
  },
  passThrough: EMPTY,
};
