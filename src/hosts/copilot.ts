// GitHub Copilot (VS Code agent mode, Copilot CLI): two event shapes, detected
// from the input. VS Code's (`tool_name` + `tool_input`) is answered as Claude
// Code; the CLI's (`toolName` + `toolArgs`, the arguments as a JSON string) with
// `modifiedArgs`. Both read hook files in the CLI's format from
// `.github/hooks/` and `~/.copilot/hooks/`. Copilot in JetBrains IDEs is
// moving its agent to Copilot CLI (the plugin's default harness; Copilot in
// JetBrains AI Assistant is Copilot CLI as an ACP server), which reads these
// same files: `copilot-jetbrains` names this host. Copilot CLI's
// `sessionStart` (new and resumed sessions) can add `additionalContext` to the
// session.
import { claudeAnswer, decodeClaudeShape, REWRITE_REASON, type ClaudeCtx } from "./claude.js";
import { join } from "node:path";
import { copilotOwn } from "../permissions/copilot-own.js";
import { COPILOT_RULES } from "../permissions/sources.js";
import { home, project } from "./targets.js";
import { answerIn, claudeAllowing, json, obj, SILENT, str, type Host, type SessionStart } from "./types.js";
import { unguarded } from "./install.js";

type CopilotCtx = { shape: "claude"; claude: ClaudeCtx } | { shape: "cli"; args: Record<string, unknown> };

const SHELL_TOOLS = ["bash", "Bash", "runTerminalCommand", "run_in_terminal"];
/** Copilot CLI's shell tool on Windows: PowerShell syntax, which rtk's shell grammar does not read. */
const UNREAD_SHELLS = ["powershell"];

/** Copilot CLI's entry: `bash` on Linux and macOS, `powershell` on Windows; the command reads the same in both. */
/** `bash` on Linux and macOS, `powershell` on Windows, which reads the call without its POSIX guard. */
const cliEntry = (command: string) => ({ type: "command", bash: command, powershell: unguarded(command), timeoutSec: 10 });

/**
 * Copilot CLI's `sessionStart`, in its camelCase format: `{sessionId, timestamp,
 * cwd, source, initialPrompt?}`, which names no event; a session start is the
 * event with a `source` and no tool.
 */
const SESSION: SessionStart = {
  arrayPath: ["hooks", "sessionStart"],
  entries: (command) => [cliEntry(command)],
  is: (e) => str(e["sessionId"]) !== undefined && ["startup", "resume", "new"].includes(str(e["source"]) ?? "") && e["toolName"] === undefined && e["hook_event_name"] === undefined,
  answer: (text) => json({ additionalContext: text }),
  silent: SILENT,
  sample: (cwd) => JSON.stringify({ sessionId: "rtk-doctor", timestamp: 0, cwd, source: "startup" }),
};

export const copilot: Host = {
  name: "copilot",
  title: "GitHub Copilot",
  tier: "hook",
  aliases: ["copilot-jetbrains"],
  rules: COPILOT_RULES,
  engine: { explicitAllow: true, own: copilotOwn },
  hook: {
    decode(event) {
      const e = obj(event);
      if (!e) return null;
      if ("toolName" in e) {
        const tool = str(e["toolName"]) ?? "";
        if (UNREAD_SHELLS.includes(tool) || !SHELL_TOOLS.includes(tool)) return null;
        // Documented as a JSON string; an object is read the same way.
        const raw = e["toolArgs"];
        let args: Record<string, unknown> | null = null;
        try {
          args = typeof raw === "string" ? obj(JSON.parse(raw)) : obj(raw);
        } catch {
          return null;
        }
        const command = str(args?.["command"]);
        if (!args || command === undefined) return null;
        return { command, cwd: str(e["cwd"]), ctx: { shape: "cli", args } };
      }
      const d = decodeClaudeShape(event, SHELL_TOOLS);
      return d && { command: d.command, cwd: d.cwd, ctx: { shape: "claude", claude: d.ctx } };
    },
    encode(outcome, ctx: CopilotCtx) {
      if (ctx.shape === "claude") return claudeAnswer(outcome, ctx.claude);
      return answerIn(outcome, ctx.args, {
        rewrite(outcome, args) {
          // No decision: the replaced arguments go through Copilot's own approval; an ask rule makes it ask.
          const decision = outcome.ask ? "ask" : outcome.allow ? "allow" : null;
          return json({
            ...(decision ? { permissionDecision: decision } : {}),
            permissionDecisionReason: REWRITE_REASON,
            modifiedArgs: { ...args, command: outcome.command },
          });
        },
        deny: (reason) => json({ permissionDecision: "deny", permissionDecisionReason: reason }),
      });
    },
    passThrough: SILENT,
  },
  install: {
    target: {
      kind: "json",
      arrayPath: ["hooks", "preToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [cliEntry(command)],
      commandKeys: ["bash", "powershell", "command"],
      plainKeys: ["powershell"],
      // Where rtk put its entry before it wrote Copilot CLI's format: VS Code's own (`PreToolUse`, `command`), which VS Code still reads.
      earlier: [["hooks", "PreToolUse"]],
    },
    scopes: {
      global: (w) => join(w.env["COPILOT_HOME"] || join(home(w), ".copilot"), "hooks", "rtk.json"),
      project: (w) => join(project(w, ".github"), ".github", "hooks", "rtk.json"),
    },
    defaultScope: "global",
  },
  session: SESSION,
  doctor: { sample: (command, cwd) => JSON.stringify({ timestamp: Date.now(), cwd, toolName: "bash", toolArgs: JSON.stringify({ command }) }), allowing: claudeAllowing },
};
