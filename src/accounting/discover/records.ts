// One shell command an agent ran, as its transcript tells it: the command as the
// agent wrote it (a hook's rewrite is not in the transcript), where and when it
// ran, and the output the agent was shown.

export type TranscriptSource = "claude" | "codex";

export interface ShellCall {
  source: TranscriptSource;
  /** The host's session id (Claude's sessionId, Codex's session_meta id). */
  session: string;
  /** The host's id of the call: Claude's tool_use id, Codex's call_id (what a hook decision records as toolUseId). */
  id: string;
  /** Milliseconds since the epoch; NaN when the transcript gives no time. */
  time: number;
  /** The folder the session started in. */
  project: string;
  /** The folder the command ran in. */
  cwd: string;
  command: string;
  /** The output the agent was shown, or null when no result was recorded. */
  output: string | null;
  /** The exit code, when the result says it (a failed Claude result without one counts as 1). */
  exitCode: number | null;
  /** The host cut the output before the agent saw it. */
  truncated: boolean;
}

// Claude Code keeps an output over its limit in a file and shows a preview inside
// this tag; older versions cut the middle out and left a line count in its place.
const CLAUDE_PERSISTED = "<persisted-output>";
const CLAUDE_MIDDLE_CUT = /\n\.\.\. \[\d+ lines truncated\] \.\.\.\n/;
// Codex cuts long outputs too: a line count or a token count replaces the middle.
const CODEX_CUT = /\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]|…\d+ tokens truncated…/;

export function claudeTruncated(text: string): boolean {
  return text.includes(CLAUDE_PERSISTED) || CLAUDE_MIDDLE_CUT.test(text);
}

export function codexTruncated(text: string): boolean {
  return CODEX_CUT.test(text);
}

/** ISO time → ms; NaN when absent or unreadable. */
export function timeOf(v: unknown): number {
  return typeof v === "string" ? Date.parse(v) : NaN;
}
