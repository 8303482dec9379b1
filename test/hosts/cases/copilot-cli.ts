import { join } from "node:path";
import { REASON, REASON_MARK, type HostCase } from "./types.js";

/**
 * Copilot CLI (docs/hosts.md): camelCase, `toolArgs` as a JSON string. Its
 * documented answer is `permissionDecision` (allow | deny | ask),
 * `permissionDecisionReason` and `modifiedArgs`; no decision is no opinion.
 * The spec had no answer for an ask rule; the documentation's `ask` wins.
 */
export const copilotCli: HostCase = {
  id: "copilot2",
  cli: "copilot",
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status" };
    return { toolInput, event: { timestamp: 1768471452345, cwd, toolName: "bash", toolArgs: JSON.stringify(toolInput) } };
  },
  // The spec gives `permissionDecisionReason:"…"` without its text: the same reason as Claude's answer.
  rewriteAnswer: (command, allow, toolInput) => ({ modifiedArgs: { ...toolInput, command }, permissionDecisionReason: REASON, ...(allow ? { permissionDecision: "allow" } : {}) }),
  askAnswer: (command, toolInput) => ({ permissionDecision: "ask", permissionDecisionReason: REASON, modifiedArgs: { ...toolInput, command } }),
  passAnswer: null,
  activeDenyAnswer: { permissionDecision: "deny", permissionDecisionReason: REASON_MARK },
  otherTool: (e, cwd) => ({ ...e, toolName: "view", toolArgs: JSON.stringify({ path: join(cwd, "README.md") }) }),
  inputField: "toolArgs",
  inputAsString: true,
  // sessionStart in the camelCase format (no event name): `{sessionId, timestamp, cwd, source, initialPrompt?}`;
  // the answer's `additionalContext` is added to the session.
  sessionStart: {
    event: (cwd) => ({ sessionId: "5a0e7c3d-91b2-4f68-8d1e-6c4b2a9f0e73", timestamp: 1768471450012, cwd, source: "new", initialPrompt: "fix the failing test" }),
    answer: (text) => ({ additionalContext: text }),
    silent: null,
  },
};
