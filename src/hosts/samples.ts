// A representative event of each host, for `rtk doctor`'s self-test (and tests).

export function sampleEvent(host: string, command: string, cwd: string): string | null {
  const claudeLike = (toolName: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      session_id: "rtk-doctor",
      transcript_path: "/dev/null",
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: toolName,
      tool_input: { command, description: "rtk doctor self-test" },
      tool_use_id: "rtk-doctor",
      ...extra,
    });
  switch (host) {
    case "claude":
      return claudeLike("Bash");
    case "codex":
      return claudeLike("Bash", { permission_mode: "default" });
    case "copilot":
      return JSON.stringify({ toolName: "bash", toolArgs: JSON.stringify({ command }), cwd });
    case "cursor":
      return JSON.stringify({ hook_event_name: "preToolUse", tool_name: "Shell", tool_input: { command }, cwd, workspace_roots: [cwd] });
    case "gemini":
      return JSON.stringify({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command }, cwd });
    case "kiro":
      return JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "execute_bash", tool_input: { command }, cwd });
    default:
      return null;
  }
}
