// Mistral Vibe: a `pre_tool` hook for its `bash` tool, declared as a
// `[[hooks]]` table in hooks.toml. Vibe runs the tool with the arguments a hook
// hands back in `hook_specific_output.tool_input`, and then its own approval, so
// a rewrite claims no permission; `{"decision": "deny"}` blocks with a reason the
// model reads. Empty stdout lets the call run as typed.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { home, project } from "./targets.js";
import { answers, json, obj, SILENT, str, type Decoded, type Host } from "./types.js";

interface VibeCtx {
  toolInput: Record<string, unknown>;
}

/** The shell tool: `bash`, also as its qualified name (`<toolset>.bash`). */
const isShell = (name: string) => name === "bash" || name.endsWith(".bash");

function decode(event: unknown): Decoded<VibeCtx> | null {
  const e = obj(event);
  const name = str(e?.["tool_name"]);
  const toolInput = obj(e?.["tool_input"]);
  const command = str(toolInput?.["command"]);
  if (!e || !name || !isShell(name) || !toolInput || command === undefined) return null;
  const point = str(e["hook_event_name"]);
  if (point !== undefined && point !== "pre_tool") return null;
  return { command, cwd: str(e["cwd"]), ctx: { toolInput } };
}

export const vibe: Host = {
  name: "vibe",
  title: "Mistral Vibe",
  tier: "hook",
  aliases: ["mistral-vibe"],
  rules: NO_RULES,
  hook: {
    decode,
    ...answers<VibeCtx>({
      // Vibe has no way to be told to ask: an ask rule leaves the command as typed.
      rewrite: (outcome, ctx) => (outcome.ask ? SILENT : json({ hook_specific_output: { tool_input: { ...ctx.toolInput, command: outcome.command } } })),
      deny: (reason) => json({ decision: "deny", reason }),
    }),
  },
  install: {
    target: {
      kind: "toml",
      arrayKey: "hooks",
      tables: (command) => `[[hooks]]\nname = "rtk"\ntype = "pre_tool"\nmatch = "bash"\ncommand = ${JSON.stringify(command)}\ntimeout = 10.0\n`,
    },
    scopes: {
      global: (w) => join(home(w), ".vibe", "hooks.toml"),
      project: (w) => join(project(w, ".vibe"), ".vibe", "hooks.toml"),
    },
    defaultScope: "global",
    note: "Vibe loads a project's .vibe/hooks.toml only in a folder it trusts.",
  },
  doctor: {
    sample: (command, cwd) => JSON.stringify({ cwd, hook_event_name: "pre_tool", tool_name: "bash", tool_call_id: "rtk-doctor", tool_input: { command } }),
  },
};
