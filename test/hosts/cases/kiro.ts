import { join } from "node:path";
import type { HostCase } from "./types.js";

export const kiro: HostCase = {
  id: "kiro",
  cli: "kiro",
  lists: { allow: false, ask: false, deny: false },
  recorded(command, cwd) {
    const toolInput = { command, summary: "Show the working tree status" };
    return { toolInput, event: { hook_event_name: "PreToolUse", cwd, tool_name: "execute_bash", tool_input: toolInput } };
  },
  rewriteAnswer: () => null,
  rewriteLine: (command) => `rtk: run \`${command}\` instead (same command, compact output)`,
  passAnswer: null,
  otherTool: (e, cwd) => ({ ...e, tool_name: "fs_read", tool_input: { operations: [{ mode: "Line", path: join(cwd, "README.md") }] } }),
  inputField: "tool_input",
  // The SessionStart trigger (the older agent configurations' agentSpawn): a command's stdout at exit 0 goes into the agent's context.
  sessionStart: {
    event: (cwd) => ({ hook_event_name: "SessionStart", cwd }),
    answer: (text) => text,
    silent: null,
  },
};
