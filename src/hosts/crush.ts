// Crush (Charm): PreToolUse hooks in crush.json, Claude Code-compatible in
// spirit but with an envelope of its own: the event names itself in `event`,
// and a hook answers `{updated_input}` (shallow-merged over the tool's input)
// with no `decision`, which Crush reads as "no opinion" and then runs its own
// permission flow on the replaced command. Its permissions name tools, not
// commands, so there is no command rule for a rewrite to slip past.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { configHome, project } from "./targets.js";
import { answers, json, obj, SILENT, str, type Decoded, type Host } from "./types.js";

/** Crush accepts an event name in any case, and in snake case. */
const isPreToolUse = (name: string) => name.replace(/_/g, "").toLowerCase() === "pretooluse";

function decode(event: unknown): Decoded<null> | null {
  const e = obj(event);
  const command = str(obj(e?.["tool_input"])?.["command"]);
  if (!e || str(e["tool_name"]) !== "bash" || command === undefined) return null;
  const name = str(e["event"]);
  if (name !== undefined && !isPreToolUse(name)) return null;
  return { command, cwd: str(e["cwd"]), ctx: null };
}

export const crush: Host = {
  name: "crush",
  title: "Crush",
  tier: "hook",
  rules: NO_RULES,
  hook: {
    decode,
    ...answers<null>({
      // Crush has no way to be told to ask: an ask rule leaves the command as typed.
      rewrite: (outcome) => (outcome.ask ? SILENT : json({ updated_input: { command: outcome.command } })),
      deny: (reason) => json({ decision: "deny", reason }),
    }),
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: {},
      entries: (command) => [{ name: "rtk", matcher: "^bash$", command, timeout: 10 }],
    },
    scopes: {
      global: (w) => join(configHome(w), "crush", "crush.json"),
      // A project's settings are `crush.json` or `.crush.json`: the one it has, else the first.
      project: (w) => {
        const root = project(w, ".crush");
        return existsSync(join(root, ".crush.json")) && !existsSync(join(root, "crush.json")) ? join(root, ".crush.json") : join(root, "crush.json");
      },
    },
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) => JSON.stringify({ event: "PreToolUse", session_id: "rtk-doctor", cwd, tool_name: "bash", tool_input: { command } }),
  },
};
