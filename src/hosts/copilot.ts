// GitHub Copilot (VS Code agent mode, Copilot CLI): two event shapes, detected
// from the input. The Claude-style one is answered as Claude Code; the CLI one
// (`toolName` + `toolArgs` as a JSON string) with modifiedArgs.
import { claudeAnswer, decodeClaudeShape, REWRITE_REASON, type ClaudeCtx } from "./claude.js";
import { json, obj, SILENT, str, type HookAdapter } from "./types.js";

type CopilotCtx = { shape: "claude"; claude: ClaudeCtx } | { shape: "cli"; args: Record<string, unknown> };

const SHELL_TOOLS = ["bash", "Bash", "runTerminalCommand", "run_in_terminal"];

export const copilot: HookAdapter<CopilotCtx> = {
  name: "copilot",
  title: "GitHub Copilot",
  rules: "claude",
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
  encode(outcome, ctx) {
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
};
