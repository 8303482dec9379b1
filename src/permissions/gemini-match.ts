// How Gemini CLI's policy engine decides a shell command (checked against
// Gemini CLI 0.61.0, its bundled source): every rule that names the shell tool
// is tried in order of priority, highest first, and the first that matches
// decides. A rule with a command prefix (`run_shell_command(git status)` in
// `tools.allowed`, `commandPrefix = "git status"` in a policy file) matches a
// command that starts with the prefix, which is the whole command or is
// followed by a space or a double quote (its pattern runs on the JSON of the
// call's arguments, where a tab or a newline is escaped); `*` in it is literal.
// A rule with no prefix names every command. The engine judges the command it
// runs, after a hook replaced it: `rtk git status` meets only the rules written
// for `rtk`. Where the rules come from: gemini-rules.ts.

export type GeminiDecision = "allow" | "ask" | "deny";

export interface GeminiRule {
  decision: GeminiDecision;
  /** Gemini's priority, tier included (a user policy's `priority = 100` is 4.1, `tools.allowed` 4.3). */
  priority: number;
  /** The command prefix; null: every command. */
  prefix: string | null;
  /** The rule as its file writes it, for `rtk explain`. */
  rule: string;
  /**
   * Gemini's deny of every command an allowlist does not name: no rule the user
   * wrote names the command, so rtk does not deny it behind an `rtk` the agent
   * typed (where a rule for `rtk` may allow it).
   */
  implicit?: boolean;
}

export interface GeminiRules {
  /** Highest priority first; rules of equal priority deny before they ask, and ask before they allow. */
  rules: readonly GeminiRule[];
}

const WEIGHT: Record<GeminiDecision, number> = { deny: 0, ask: 1, allow: 2 };

/** The rules in the order they are tried. */
export function geminiOrder(rules: readonly GeminiRule[]): GeminiRule[] {
  return [...rules].sort((a, b) => b.priority - a.priority || WEIGHT[a.decision] - WEIGHT[b.decision]);
}

/**
 * Whether a prefix rule meets `text`. An allow is met exactly as Gemini meets
 * it; a deny or an ask also after any blank, which can only restrict more.
 */
export function geminiPrefix(prefix: string | null, text: string, decision: GeminiDecision): boolean {
  if (prefix === null) return true;
  if (!text.startsWith(prefix)) return false;
  const next = text[prefix.length];
  if (next === undefined || next === " " || next === '"') return true;
  return decision !== "allow" && /\s/.test(next);
}

/** The rule that decides `text`: the first, by priority, that meets it; null when none does (Gemini's default). */
export function geminiDecide(rules: GeminiRules, text: string): GeminiRule | null {
  return rules.rules.find((r) => geminiPrefix(r.prefix, text, r.decision)) ?? null;
}
