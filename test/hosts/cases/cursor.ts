import { join } from "node:path";
import { REASON_MARK, type HostCase } from "./types.js";

// Cursor (docs/hosts.md): `preToolUse` for the Shell tool can replace the command
// (`updated_input`); the answer's `permission` is allow | deny | ask, and a
// deny carries `agent_message`, which the model reads.

export const cursor: HostCase = {
  id: "cursor",
  cli: "cursor",
  lists: { allow: true, ask: false, deny: true },
  recorded(command, cwd) {
    const toolInput = { command };
    return {
      toolInput,
      event: {
        conversation_id: "c0a80164-5b1e-4f3a-9d2c-7e6f5a4b3c21",
        generation_id: "g-8e7d6c5b-4a39-4281-b0f1-e2d3c4b5a697",
        model: "claude-4.5-sonnet",
        hook_event_name: "preToolUse",
        cursor_version: "2.1.32",
        workspace_roots: [cwd],
        user_email: "dev@example.com",
        tool_name: "Shell",
        tool_input: toolInput,
        tool_use_id: "call_5pQ2rS8tU1vW4xY7",
        cwd,
      },
    };
  },
  rewriteAnswer: (command, allow) => ({ continue: true, permission: allow ? "allow" : "ask", updated_input: { command } }),
  askAnswer: (command) => ({ continue: true, permission: "ask", updated_input: { command } }),
  passAnswer: {},
  activeDenyAnswer: { continue: true, permission: "deny", agent_message: REASON_MARK },
  otherTool: (e, cwd) => ({ ...e, tool_name: "Read", tool_input: { file_path: join(cwd, "README.md") } }),
  inputField: "tool_input",
};

/**
 * Cursor's `beforeShellExecution` (`command`, `cwd`): it can allow, ask or deny
 * but not replace the command, so a rewrite has no answer (`{}`, Cursor's own
 * policy runs); only a deny rtk must give itself is answered.
 */
export const cursorShell: HostCase = {
  id: "cursor-shell",
  cli: "cursor",
  lists: { allow: true, ask: false, deny: true },
  recorded(command, cwd) {
    return {
      toolInput: { command },
      event: {
        conversation_id: "c0a80164-5b1e-4f3a-9d2c-7e6f5a4b3c21",
        generation_id: "g-8e7d6c5b-4a39-4281-b0f1-e2d3c4b5a697",
        model: "claude-4.5-sonnet",
        hook_event_name: "beforeShellExecution",
        cursor_version: "2.1.32",
        workspace_roots: [cwd],
        user_email: "dev@example.com",
        command,
        cwd,
        sandbox: false,
      },
    };
  },
  rewriteAnswer: () => ({}),
  passAnswer: {},
  activeDenyAnswer: { continue: true, permission: "deny", agent_message: REASON_MARK },
  otherTool: (e) => ({ ...e, hook_event_name: "afterShellExecution", output: "On branch main", duration: 12 }),
  inputField: "command",
};
