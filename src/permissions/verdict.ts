// The verdict of a host's rules on a command: deny > unattestable ask > ask >
// allow (only when every part is allowed) > default. Never more permissive than
// the host itself would be.
import type * as A from "../ast/nodes.js";
import { inputFacts, type InputFacts } from "../rewrite/facts.js";
import type { Verdict } from "../rewrite/rewrite.js";
import { parse } from "../../grammar/parse.js";
import { commandParts, listTexts, rtkRuns, type Part, type PartOptions } from "./parts.js";
import { allows, matchesPattern } from "./pattern.js";

export interface RuleSet {
  deny: readonly string[];
  ask: readonly string[];
  allow: readonly string[];
  /** Paths the host refuses to let a command read (Claude Code's `Read(…)` deny rules), as written. */
  readDeny?: readonly string[];
}

export interface PartVerdict {
  text: string;
  span: [number, number];
  deny: string | null;
  /** The form the deny rule matched when the host cannot see it (the agent's own `rtk` removed, a tool's global options skipped, …). */
  denyForm: string | null;
  ask: string | null;
  allow: string | null;
  /** Why the host runs this part unprompted by itself, with no rule naming it (its read-only list, its mode), when it does. */
  own: string | null;
  /** The agent typed `rtk` before a command the host would allow: why (its rule or its own list, on what rtk runs). */
  through: string | null;
}

/**
 * What a host decides about a part by itself: it runs it unprompted with no
 * rule naming it (`allow`, with the reason), or it asks whatever its allow rules
 * say (`veto`: a path outside the project, say), or its rules decide (null).
 * An `allow` must never be given for a part the host would ask about: the
 * judgement may only be narrower than the host; a `veto` may be broader.
 */
export type OwnJudgement = { allow: string } | { veto: string } | null;

export interface OwnAllow {
  /** Why the host asks about the whole command whatever its rules say (its shape: a subshell, two `cd`s, …), or null. */
  whole?(script: A.Script, src: string, parts: readonly Part[]): string | null;
  part(p: Part): OwnJudgement;
}

export interface JudgeOptions extends PartOptions {
  own?: OwnAllow | null;
  /**
   * An agent-typed `rtk <command>` is allowed where the host would allow
   * `<command>` (rtk runs exactly it): only for a host whose answer can carry
   * that allow. Its deny and ask rules still see both forms.
   */
  throughRtk?: boolean;
}

export interface PermissionReport {
  verdict: Verdict;
  /** rtk must answer with the host's deny itself: the host's rules cannot see through an agent-typed `rtk`. */
  activeDeny: boolean;
  unattestable: string | null;
  /** Why the host asks about the command as a whole, whatever its rules say. */
  hostVeto: string | null;
  parts: PartVerdict[];
}

/** The ask "rule" of a command whose innermost command rtk does not read. */
const OPAQUE = "(nested deeper than rtk reads)";

const first = (rules: readonly string[], forms: readonly string[]) => rules.find((r) => forms.some((f) => matchesPattern(r, f))) ?? null;
const firstForm = (rule: string, forms: readonly string[]) => forms.find((f) => matchesPattern(rule, f)) ?? null;

export function judge(script: A.Script, src: string, rules: RuleSet, facts: InputFacts = inputFacts(script), opts: JudgeOptions = {}): PermissionReport {
  const whole = src.trim();
  const raw = commandParts(script, src, opts);
  const hostVeto = opts.own?.whole?.(script, src, raw) ?? null;
  const parts: PartVerdict[] = raw.map((p) => {
    const direct = first(rules.deny, p.denyForms);
    const hidden = direct === null ? first(rules.deny, p.hiddenForms) : null;
    const own = opts.own?.part(p) ?? null;
    const allow = rules.allow.find((r) => allows(r, p.text)) ?? null;
    const owned = own && "allow" in own ? own.allow : null;
    return {
      text: p.text,
      span: [p.span.start, p.span.end],
      deny: direct ?? hidden,
      denyForm: hidden === null ? null : firstForm(hidden, p.hiddenForms),
      // What bash runs is asked for in every form a deny rule is tried on (allow is earned as written only);
      // a command nested deeper than rtk reads is asked for whenever the host has deny or ask rules.
      ask: first(rules.ask, [...p.denyForms, ...p.hiddenForms]) ?? (own && "veto" in own ? own.veto : null) ?? (p.opaque && (rules.deny.length || rules.ask.length) ? OPAQUE : null),
      allow,
      own: owned,
      through: opts.throughRtk && !allow && !owned ? allowedBehindRtk(p, src, rules, opts) : null,
    };
  });
  const unattestable = facts.unattestable?.why ?? null;
  // A deny rule written for several commands (it holds `&&`, `||`, `;` or `|`) is tried on
  // every run of consecutive commands; other rules on each command alone.
  const listRules = rules.deny.filter((r) => /&&|\|\||;|\|/.test(r));
  const wholeDeny = whole && listRules.length && !parts.some((p) => p.deny) ? first(listRules, listTexts(script, src)) : null;
  let verdict: Verdict;
  let activeDeny = false;
  if (parts.some((p) => p.deny) || wholeDeny) {
    verdict = "deny";
    activeDeny = !wholeDeny && parts.every((p) => !p.deny || p.denyForm !== null);
  } else if (unattestable || hostVeto) verdict = "ask";
  else if (parts.some((p) => p.ask)) verdict = "ask";
  else if (parts.length && parts.every((p) => p.allow || p.own || p.through)) verdict = "allow";
  else verdict = "default";
  return { verdict, activeDeny, unattestable, hostVeto, parts };
}

/** Why the host would allow the command an agent-typed `rtk` runs, judged as the host judges it typed alone; null if it would not. */
function allowedBehindRtk(p: Part, src: string, rules: RuleSet, opts: JudgeOptions): string | null {
  const inner = rtkRuns(p, src);
  if (inner === null) return null;
  const parsed = parse(inner);
  if (!parsed.ok) return null;
  const report = judge(parsed.script, inner, rules, undefined, { ...opts, throughRtk: false });
  if (report.verdict !== "allow") return null;
  const why = report.parts.map((q) => (q.allow ? `your rule \`${q.allow}\`` : q.own)).join("; ");
  return `rtk runs \`${inner}\`: ${why}`;
}
