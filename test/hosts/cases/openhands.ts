import { join } from "node:path";
import type { HostCase } from "./types.js";

// OpenHands (docs/hosts.md): .openhands/hooks.json's PreToolUse gets `{event_type,
// tool_name, tool_input, session_id, working_dir}` on stdin, the shell tool being
// `terminal` and its input the terminal action as data (`command`, `is_input`,
// `timeout`, `reset`, and its `kind`). Exit 2 blocks the call and its stderr is
// what the agent is told; no replacement is documented, so a rewrite is a
// suggestion (as Kiro). Its SessionStart adds nothing to the context: no session entry.
export const openhands: HostCase = {
  id: "openhands",
  cli: "openhands",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, is_input: false, timeout: null, reset: false, kind: "TerminalAction" };
    return {
      toolInput,
      // Every field of the event, unset ones as null.
      event: {
        event_type: "PreToolUse",
        tool_name: "terminal",
        tool_input: toolInput,
        tool_response: null,
        message: null,
        session_id: "9c1e4f7a-52b8-4d06-8e3a-1f6b0d2c7e95",
        working_dir: cwd,
        metadata: {},
      },
    };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  // The file editor's input has a `command` too (`view`, `create`, `str_replace`…): not a shell command.
  otherTool: (e, cwd) => ({ ...e, tool_name: "file_editor", tool_input: { command: "view", path: join(cwd, "README.md"), kind: "FileEditorAction" } }),
  inputField: "tool_input",
};
