import { join } from "node:path";
import { claudeAsk, claudeDeny, claudeRewrite, claudeSessionAnswer, type HostCase } from "./types.js";

export const claude: HostCase = {
  id: "claude",
  cli: "claude",
  readOnlyByItself: true,
  lists: { allow: true, ask: true, deny: true },
  recorded(command, cwd) {
    const toolInput = { command, description: "Show the working tree status", timeout: 120000 };
    return {
      toolInput,
      event: {
        session_id: "3f2b8c1e-7d4a-4b9e-a6f1-0c5d2e8b9a71",
        transcript_path: "/home/dev/.claude/projects/-home-dev-work-app/3f2b8c1e-7d4a-4b9e-a6f1-0c5d2e8b9a71.jsonl",
        cwd,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: toolInput,
        tool_use_id: "toolu_01HX7kQ9vJc2mN4pR8sT6wYb",
      },
    };
  },
  rewriteAnswer: claudeRewrite,
  askAnswer: claudeAsk,
  passAnswer: null,
  activeDenyAnswer: claudeDeny,
  otherTool: (e, cwd) => ({ ...e, tool_name: "Read", tool_input: { file_path: join(cwd, "README.md") } }),
  inputField: "tool_input",
  // SessionStart (startup, resume, clear, compact): context in hookSpecificOutput.additionalContext.
  sessionStart: {
    event: (cwd) => ({
      session_id: "3f2b8c1e-7d4a-4b9e-a6f1-0c5d2e8b9a71",
      transcript_path: "/home/dev/.claude/projects/-home-dev-work-app/3f2b8c1e-7d4a-4b9e-a6f1-0c5d2e8b9a71.jsonl",
      cwd,
      hook_event_name: "SessionStart",
      source: "startup",
      model: "claude-sonnet-4-5",
    }),
    answer: claudeSessionAnswer,
    silent: null,
  },
};
