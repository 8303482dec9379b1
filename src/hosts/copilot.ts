// GitHub Copilot (VS Code agent mode, Copilot CLI): two event shapes, detected
// from the input. The Claude-style one is answered as Claude Code; the CLI one
// (`toolName` + `toolArgs` as a JSON string) with modifiedArgs.
import { claudeAnswer, decodeClaudeShape, REWRITE_REASON, type ClaudeCtx } from "./claude.js";
import { join } from "node:path";
import { CLAUDE_RULES } from "../permissions/sources.js";
import { commandHook, home, project } from "./targets.js";
import { json, obj, SILENT, str, type Host } from "./types.js";

type CopilotCtx = { shape: "claude"; claude: ClaudeCtx } | { shape: "cli"; args: Record<string, unknown> };

const SHELL_TOOLS = ["bash", "Bash", "runTerminalCommand", "run_in_terminal"];

export const copilot: Host = {
  name: "copilot",
  title: "GitHub Copilot",
  tier: "hook",
  rules: CLAUDE_RULES,
  hook: {
  decode(event) {
    const e = obj(event);
    if (!e) return null;
    if ("toolName" in e) {
      if (!SHELL_TOOLS.includes(str(e["toolName"]) ?? "")) return null;
      const raw = e["toolArgs"];
      const args = typeof raw === "string" ? obj(JSON.parse(raw)) : obj(raw);
      const command = str(args?.["command"]);
      if (!args || command === undefined) return null;
      return { command, cwd: str(e["cwd"]), ctx: { shape: "cli", args } };
    }
    const d = decodeClaudeShape(event, SHELL_TOOLS);
    return d && { command: d.command, cwd: d.cwd, ctx: { shape: "claude", claude: d.ctx } };
  },
  encode(outcome, ctx: CopilotCtx) {
    if (ctx.shape === "claude") return claudeAnswer(outcome, ctx.claude);
    switch (outcome.kind) {
      case "rewrite":
        // The CLI shape has no way to replace the command and ask: Copilot judges it as typed.
        if (outcome.ask) return SILENT;
        return json({
          modifiedArgs: { ...ctx.args, command: outcome.command },
          permissionDecisionReason: REWRITE_REASON,
          ...(outcome.allow ? { permissionDecision: "allow" } : {}),
        });
      case "active-deny":
        return json({ permissionDecision: "deny", permissionDecisionReason: outcome.reason });
      default:
        return SILENT;
    }
  },
  passThrough: SILENT,
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [commandHook(command, 5)],
    },
    scopes: {
      global: (w) => join(home(w), ".copilot", "hooks", "rtk.json"),
      project: (w) => join(project(w, ".github"), ".github", "hooks", "rtk.json"),
    },
    defaultScope: "project",
  },
  doctor: { sample: (command, cwd) => JSON.stringify({ toolName: "bash", toolArgs: JSON.stringify({ command }), cwd }) },
};
