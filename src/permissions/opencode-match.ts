// How OpenCode's bash tool applies its rules (checked against OpenCode 1.18.33,
// its source and the binary): the rules make one list, OpenCode's default
// (`*`: allow) first; the last rule whose pattern matches decides, with
// OpenCode's wildcards (pattern.ts). The tool judges each command of the input
// by its own text as written (assignments and redirects included); it leaves
// declarations (`export`, `local`, …), `unset` and the `cd` family to other
// checks. Where the rules come from: opencode-rules.ts.
import type * as A from "../ast/nodes.js";
import { opencodeWildcard } from "./pattern.js";

export type OpencodeAction = "allow" | "ask" | "deny";

export interface OpencodeRule {
  pattern: string;
  action: OpencodeAction;
}

export interface OpencodeRules {
  /** The bash tool's rules for the agent, in order, OpenCode's default (`*`: allow) first. */
  bash: readonly OpencodeRule[];
  /** The agent they are for. */
  agent: string;
  /** Why rtk cannot tell the agent's rules for certain (they are in a file it does not read), or null. */
  unread: string | null;
  /** What `external_directory` calls the project: the folder OpenCode runs in, and its git top level. */
  directory: string;
  worktree: string | null;
}

/** OpenCode's default for every tool, the bash tool's included. */
export const OPENCODE_DEFAULT: OpencodeRule = { pattern: "*", action: "allow" };

/** OpenCode's last rule that matches `text`. */
export function opencodeAction(rules: OpencodeRules, text: string): OpencodeRule {
  for (let i = rules.bash.length - 1; i >= 0; i--) if (opencodeWildcard(rules.bash[i]!.pattern, text)) return rules.bash[i]!;
  return OPENCODE_DEFAULT;
}

/** The `cd` family: OpenCode checks their paths but does not judge them by the bash rules. */
const CD = new Set(["cd", "chdir", "popd", "pushd"]);
/** Builtins its shell grammar reads as declarations, not commands: the bash rules do not see them. */
const DECLARATIONS = new Set(["export", "declare", "local", "readonly", "typeset", "unset", "unsetenv"]);
/** Commands whose path arguments OpenCode checks against the project (`external_directory`). */
export const PATH_COMMANDS: ReadonlySet<string> = new Set([...CD, "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat"]);

/** Whether OpenCode's bash rules judge this simple command (its first word as written). */
export function opencodeJudges(cmd: A.SimpleCommand, src: string): boolean {
  const first = cmd.words[0];
  if (!first) return false;
  const word = src.slice(first.span.start, first.span.end);
  return !CD.has(word) && !DECLARATIONS.has(word);
}

/** The text OpenCode matches for a simple command: its source with assignments and redirects, trimmed. */
export function opencodeText(cmd: A.SimpleCommand, src: string): string {
  return src.slice(cmd.span.start, cmd.span.end).trim();
}
