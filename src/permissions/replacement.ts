// A rewrite never earns a looser verdict than the original. A host that judges
// the command it is handed back (its rules, its own read-only list) would judge
// `rtk …`, which its rules were not written for: an allow rule the user gave for
// `rtk git *` would let `git push` through, and a read-only command the host
// runs by itself would become a prompt. So a rewrite is handed back only when
// the host runs the original unprompted, and the rewritten form gets no deny or
// ask of the host's own (and, where the answer cannot carry an allow, is itself
// allowed); otherwise the command is left as typed for the host to judge.
import { parse } from "../../grammar/parse.js";
import type { PermissionReport, RuleSet, JudgeOptions } from "./verdict.js";
import { judge } from "./verdict.js";

/** How a host treats a command it is handed back. */
export interface HostEngine {
  /** The answer can carry an allow the host honours for the replacement (its deny and ask rules on it still apply). */
  explicitAllow: boolean;
}

/** Why a rewrite is not handed back (the `held` reasons `rtk explain` shows). */
export type HeldReason = "host-asks" | "replacement-ruled" | "replacement-unallowed";

export const HELD_TEXT: Readonly<Record<HeldReason, string>> = {
  "host-asks":
    "The host would ask before running it as typed (no allow rule names every part, and it is not among what the host runs by itself): left as typed, so the host asks about the real command.",
  "replacement-ruled": "One of the host's deny or ask rules names the rewritten form: left as typed.",
  "replacement-unallowed": "The host's answer cannot carry an allow, and its rules do not allow the rewritten form: left as typed.",
};

/** Commands that write or reach the network behind an agent-typed `rtk`: what an allow rule naming `rtk …` broadly lets run unasked. */
export const OPENED_BY_RTK_RULES: readonly string[] = ["rtk git push origin main", "rtk git commit -m wip", "rtk git add .", "rtk curl -s https://example.com", "rtk npm install", "rtk env"];

/** The README's table of held reasons, as `rtk explain` gives them. */
export function heldTable(): string {
  return ["| held reason | meaning |", "|---|---|", ...Object.entries(HELD_TEXT).map(([id, text]) => `| \`${id}\` | ${text} |`)].join("\n") + "\n";
}

export interface Held {
  reason: HeldReason;
  /** The rule that named the rewritten form, for `replacement-ruled`. */
  rule?: string;
}

/** Why `rewritten` must not be handed back for a command judged `original`, or null when it may. */
export function heldReplacement(original: PermissionReport, rewritten: string, rules: RuleSet, opts: JudgeOptions, engine: HostEngine): Held | null {
  if (original.verdict !== "allow") return { reason: "host-asks" };
  const parsed = parse(rewritten);
  if (!parsed.ok) return { reason: "replacement-unallowed" };
  // The host matches its rules against the rewritten text as it is: only the forms its own matcher tries.
  const seen = judge(parsed.script, rewritten, rules, undefined, { ...opts, own: engine.explicitAllow ? null : opts.own });
  const ruled = seen.parts.find((p) => (p.deny && p.denyForm === null) || p.ask);
  if (ruled) return { reason: "replacement-ruled", rule: (ruled.deny && ruled.denyForm === null ? ruled.deny : ruled.ask) ?? undefined };
  if (!engine.explicitAllow && seen.verdict !== "allow") return { reason: "replacement-unallowed" };
  return null;
}
