// One host's conformance cases (spec/hosts.md): how it sends events and what it
// must get back. A host with two event shapes has one case per shape.
export interface Recorded {
  /** The event as the host sends it. */
  event: Record<string, unknown>;
  /** The original tool input (what `updatedInput` / `modifiedArgs` must keep). */
  toolInput: Record<string, unknown>;
}

export type ToolInput = Record<string, unknown>;

export const REASON = "rtk: token-optimised rewrite";

/** Stands for the free-text deny reason once it was checked to name the rule. */
export const REASON_MARK = "<a reason naming the rule>";

export interface HostCase {
  /** The case's name in test titles. */
  id: string;
  /** The name in `rtk hook <name>`. */
  cli: string;
  /** Which of the shared rule lists the host reads (the test HOME gives each host its own files). */
  lists: { allow: boolean; ask: boolean; deny: boolean };
  recorded(command: string, cwd: string): Recorded;
  /** The answer to a rewrite; null: the host answers by exit code 2 and a stderr line (`rewriteLine`). */
  rewriteAnswer(command: string, allow: boolean, toolInput: ToolInput): unknown;
  rewriteLine?(command: string): string;
  /** The answer when one of the host's ask rules matches; undefined: the pass-through answer. */
  askAnswer?(command: string, toolInput: ToolInput): unknown;
  /** The pass-through answer; null: nothing on stdout. */
  passAnswer: unknown;
  /** The active-deny answer, its reason replaced by REASON_MARK (hosts with a deny list). */
  activeDenyAnswer?: unknown;
  /** Another tool's event, from one of this host's events. */
  otherTool(event: Record<string, unknown>, cwd: string): Record<string, unknown>;
  /** The event field holding the tool input, and whether it is a JSON string. */
  inputField: string;
  inputAsString?: boolean;
  /** The host runs some read-only commands unprompted with no rule naming them (Claude Code's list, Codex's sandbox): rtk reads that list. */
  readOnlyByItself?: boolean;
  /**
   * The host's session-start event, as its documentation gives it, and the answer that adds `text` to the session
   * (hosts with one): a JSON value, or a string for a host that adds a hook's plain stdout; `silent` null: nothing on stdout.
   */
  sessionStart?: { event(cwd: string): Record<string, unknown>; answer(text: string): unknown; silent: unknown };
}

/** Claude Code's answer that adds context at a session's start (Codex reads the same). */
export const claudeSessionAnswer = (text: string) => ({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } });

export const claudeRewrite = (command: string, allow: boolean, toolInput: ToolInput) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    ...(allow ? { permissionDecision: "allow" } : {}),
    permissionDecisionReason: REASON,
    updatedInput: { ...toolInput, command },
  },
});

export const claudeAsk = (command: string, toolInput: ToolInput) => ({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: REASON, updatedInput: { ...toolInput, command } },
});

export const claudeDeny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: REASON_MARK } };
