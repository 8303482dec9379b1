// Cursor: preToolUse hook for the Shell tool. Cursor needs JSON on every path.
import { join } from "node:path";
import { CURSOR_RULES } from "../permissions/sources.js";
import { home, project } from "./targets.js";
import { json, obj, str, type Host } from "./types.js";

const EMPTY = json({});

export const cursor: Host = {
  name: "cursor",
  title: "Cursor",
  tier: "hook",
  rules: CURSOR_RULES,
  hook: {
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
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "preToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [{ command, matcher: "Shell" }],
    },
    scopes: {
      global: (w) => join(home(w), ".cursor", "hooks.json"),
      project: (w) => join(project(w, ".cursor"), ".cursor", "hooks.json"),
    },
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "preToolUse", tool_name: "Shell", tool_input: { command }, cwd, workspace_roots: [cwd] }),
  },
};
