// Gemini CLI: BeforeTool hook for run_shell_command. `{}` means no opinion;
// an allow is given only when the host's rules earned it, so that Gemini's own
// confirmation policy still runs on the rewritten command otherwise.
import { GEMINI_RULES } from "../permissions/sources.js";
import { commandHook, dotFolder } from "./targets.js";
import { answers, json, obj, str, type Host, type SessionStart } from "./types.js";

const EMPTY = json({});

/** Gemini CLI's `SessionStart` (startup, resume, /clear): `additionalContext` goes into the model's context. */
const GEMINI_SESSION: SessionStart = {
  arrayPath: ["hooks", "SessionStart"],
  entries: (command) => [{ hooks: [commandHook(command, 10000)] }],
  is: (e) => e["hook_event_name"] === "SessionStart",
  answer: (text) => json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } }),
  silent: EMPTY,
  sample: (cwd) => JSON.stringify({ session_id: "rtk-doctor", transcript_path: "/dev/null", cwd, hook_event_name: "SessionStart", timestamp: new Date(0).toISOString(), source: "startup" }),
};

export const gemini: Host = {
  name: "gemini",
  title: "Gemini CLI",
  tier: "hook",
  rules: GEMINI_RULES,
  engine: { explicitAllow: true },
  hook: {
    decode(event) {
      const e = obj(event);
      if (!e || str(e["tool_name"]) !== "run_shell_command") return null;
      const ev = str(e["hook_event_name"]);
      if (ev !== undefined && ev !== "BeforeTool") return null;
      const command = str(obj(e["tool_input"])?.["command"]);
      if (command === undefined) return null;
      return { command, cwd: str(e["cwd"]), ctx: null };
    },
    ...answers(
      {
        rewrite(outcome) {
          // Gemini's confirmation rules would see `rtk …`, which none of them names: Gemini judges the command as typed.
          if (outcome.ask) return EMPTY;
          const out = { hookSpecificOutput: { tool_input: { command: outcome.command } } };
          return json(outcome.allow ? { decision: "allow", ...out } : out);
        },
        deny: (reason) => json({ decision: "deny", reason }),
      },
      EMPTY,
    ),
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "BeforeTool"],
      skeleton: {},
      entries: (command) => [{ matcher: "run_shell_command", hooks: [commandHook(command, 10000)] }],
    },
    scopes: dotFolder(".gemini", ["settings.json"]),
    defaultScope: "global",
  },
  session: GEMINI_SESSION,
  doctor: {
    sample: (command, cwd) => JSON.stringify({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command }, cwd }),
    allowing: (command) => ({ ".gemini/settings.json": JSON.stringify({ tools: { allowed: [`run_shell_command(${command})`] } }) }),
  },
};
