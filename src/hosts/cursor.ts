// Cursor: preToolUse hook for the Shell tool. Cursor needs JSON on every path.
import { json, obj, str, type HookAdapter } from "./types.js";

const EMPTY = json({});

export const cursor: HookAdapter<null> = {
  name: "cursor",
  title: "Cursor",
  rules: "cursor",
  decode(event) {
    const e = obj(event);
    if (!e) return null;
    const name = str(e["tool_name"]);
    if (name !== undefined && name !== "Shell" && name !== "shell") return null;
    // preToolUse carries tool_input.command; beforeShellExecution the command itself.
    const command = str(obj(e["tool_input"])?.["command"]) ?? str(e["command"]);
    if (command === undefined) return null;
    const roots = e["workspace_roots"];
    const cwd = str(e["cwd"]) ?? (Array.isArray(roots) ? str(roots[0]) : undefined);
    return { command, cwd, ctx: null };
  },
  encode(outcome) {
    switch (outcome.kind) {
      case "rewrite":
        return json({ continue: true, permission: outcome.allow ? "allow" : "ask", updated_input: { command: outcome.command } });
      case "active-deny":
        return json({ continue: true, permission: "deny" });
      default:
        return EMPTY;
    }
  },
  passThrough: EMPTY,
};
