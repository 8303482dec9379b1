import { join } from "node:path";
import { claudeAsk, claudeDeny, claudeRewrite, type HostCase } from "./types.js";

/** VS Code agent mode: Claude-style names for the tool, camelCase for the rest. */
export const copilotVscode: HostCase = {
  id: "copilot1",
  cli: "copilot",
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command, explanation: "Show the working tree status", isBackground: false };
    return {
      toolInput,
      event: {
        timestamp: "2026-01-15T10:04:12.345Z",
        cwd,
        sessionId: "vscode-7b3e9f12-4c8d-4a6e-b1f0-2d9c8e7a6b54",
        hookEventName: "PreToolUse",
        transcript_path: "/home/dev/.config/Code/User/workspaceStorage/9a8b/chatSessions/7b3e9f12.json",
        tool_name: "run_in_terminal",
        tool_input: toolInput,
        tool_use_id: "call_Hk2mP9qR4sT7vW1x",
      },
    };
  },
  rewriteAnswer: claudeRewrite,
  askAnswer: claudeAsk,
  passAnswer: null,
  activeDenyAnswer: claudeDeny,
  otherTool: (e, cwd) => ({ ...e, tool_name: "read_file", tool_input: { filePath: join(cwd, "README.md"), startLine: 1, endLine: 50 } }),
  inputField: "tool_input",
};
