// Crush (Charm): PreToolUse hooks in crush.json, Claude Code-compatible in
// spirit but with an envelope of its own: the event names itself in `event`,
// and a hook answers `{updated_input}` (shallow-merged over the tool's input)
// and a `decision`. Crush then runs its own checks on the replaced command:
// its list of read-only commands it runs unprompted (`rtk git status` is not
// on it, so the rewrite carries `decision: "allow"`, which pre-approves that
// one call) and its built-in blocks (`curl`, `sudo`, `npm install -g`, …),
// which cannot see past an `rtk` and are rtk's deny rules (permissions/).
// A command Crush would ask about is left as typed: it asks about the command
// the agent wrote.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { crushOwn } from "../permissions/crush-own.js";
import { CRUSH_RULES } from "../permissions/sources.js";
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
  rules: CRUSH_RULES,
  engine: { explicitAllow: true, own: crushOwn },
  hook: {
    decode,
    ...answers<null>({
      // Crush has no way to be told to ask: an ask rule leaves the command as typed.
      rewrite: (outcome) => (outcome.ask ? SILENT : json({ ...(outcome.allow ? { decision: "allow" } : {}), updated_input: { command: outcome.command } })),
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
