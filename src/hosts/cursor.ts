// Cursor: events come in two documented shapes. `preToolUse` for the Shell tool
// (`tool_name`, `tool_input.command`) can replace the command (`updated_input`);
// `beforeShellExecution` (`command`, `cwd`) can only allow, ask or deny, so rtk
// has nothing to replace there and gives no opinion, unless the agent typed
// `rtk` in front of a command Cursor's rules deny. Cursor needs JSON on every path.
import { CURSOR_RULES } from "../permissions/sources.js";
import { dotFolder } from "./targets.js";
import { answers, json, obj, str, type Host } from "./types.js";

const EMPTY = json({});

type CursorCtx = { replaces: boolean };

const SHELL_TOOLS = ["Shell", "shell"];

export const cursor: Host = {
  name: "cursor",
  title: "Cursor",
  tier: "hook",
  rules: CURSOR_RULES,
  engine: { explicitAllow: true },
  hook: {
    decode(event) {
      const e = obj(event);
      if (!e) return null;
      const ev = str(e["hook_event_name"]);
      const roots = e["workspace_roots"];
      const cwd = str(e["cwd"]) ?? (Array.isArray(roots) ? str(roots[0]) : undefined);
      if (ev === "beforeShellExecution") {
        const command = str(e["command"]);
        return command === undefined ? null : { command, cwd, ctx: { replaces: false } };
      }
      if (ev !== undefined && ev !== "preToolUse") return null;
      if (!SHELL_TOOLS.includes(str(e["tool_name"]) ?? "")) return null;
      const command = str(obj(e["tool_input"])?.["command"]);
      return command === undefined ? null : { command, cwd, ctx: { replaces: true } };
    },
    ...answers<CursorCtx | undefined>(
      {
        rewrite: (outcome, ctx) => (ctx && !ctx.replaces ? EMPTY : json({ continue: true, permission: outcome.allow ? "allow" : "ask", updated_input: { command: outcome.command } })),
        deny: (reason) => json({ continue: true, permission: "deny", agent_message: reason }),
      },
      EMPTY,
    ),
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "preToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [{ command, matcher: "Shell" }],
    },
    scopes: dotFolder(".cursor", ["hooks.json"]),
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "preToolUse", tool_name: "Shell", tool_input: { command }, cwd, workspace_roots: [cwd] }),
    allowing: (command) => ({ ".cursor/cli-config.json": JSON.stringify({ permissions: { allow: [`Shell(${command})`] } }) }),
  },
};
