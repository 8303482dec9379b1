// Goose: hooks of the Open Plugins kind, a plugin folder of rtk's own with
// `hooks/hooks.json`. A PreToolUse hook can only let a tool call through or
// deny it (exit 2, stderr as the reason, which Goose returns to the model), so
// Goose gets deny-with-suggestion, as Kiro. Its shell tool is `shell`; older
// builds and older pages of its documentation name it `developer__shell`.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { home, project } from "./targets.js";
import { GATE_ANSWERS, gateAnswered, obj, str, type Decoded, type Host } from "./types.js";

const SHELL_TOOLS = ["shell", "developer__shell"];

function decode(event: unknown): Decoded<null> | null {
  const e = obj(event);
  const command = str(obj(e?.["tool_input"])?.["command"]);
  if (!e || !SHELL_TOOLS.includes(str(e["tool_name"]) ?? "") || command === undefined) return null;
  const name = str(e["event"]);
  if (name !== undefined && name !== "PreToolUse") return null;
  return { command, cwd: str(e["working_dir"]), ctx: null };
}

const plugin = (root: string) => join(root, ".agents", "plugins", "rtk", "hooks", "hooks.json");

export const goose: Host = {
  name: "goose",
  title: "Goose",
  tier: "gate",
  rules: NO_RULES,
  hook: { decode, ...GATE_ANSWERS },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: {},
      // The matcher is an unanchored regular expression: anchored, it names the shell tool alone.
      entries: (command) => [{ matcher: "^(developer__)?shell$", hooks: [{ type: "command", command, timeout: 10 }] }],
    },
    scopes: {
      global: (w) => plugin(home(w)),
      project: (w) => plugin(project(w, ".agents")),
    },
    defaultScope: "global",
  },
  doctor: {
    sample: (command, cwd) =>
      JSON.stringify({ event: "PreToolUse", session_id: "rtk-doctor", matcher_context: "shell", tool_name: "shell", tool_input: { command }, working_dir: cwd, tool_call_id: "rtk-doctor" }),
    answered: gateAnswered,
  },
};
