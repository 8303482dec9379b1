// The verdict of a host's rules on a command: deny > unattestable ask > ask >
// allow (only when every part is allowed) > default. Never more permissive than
// the host itself would be.
import type * as A from "../ast/nodes.js";
import { inputFacts, type InputFacts } from "../rewrite/facts.js";
import type { Verdict } from "../rewrite/rewrite.js";
import { parse } from "../../grammar/parse.js";
import { geminiDecide, type GeminiDecision, type GeminiRules } from "./gemini-match.js";
import { opencodeAction, opencodeJudges, opencodeText, type OpencodeRules } from "./opencode-match.js";
import { commandParts, listTexts, rtkRuns, type Part, type PartOptions } from "./parts.js";
import { allows, matchesPattern } from "./pattern.js";

export interface RuleSet {
  deny: readonly string[];
  ask: readonly string[];
  allow: readonly string[];
  /** Paths the host refuses to let a command read (Claude Code's `Read(…)` deny rules), as written. */
  readDeny?: readonly string[];
  /** OpenCode's rules, taken in its order (the last that matches decides, opencode-rules.ts); when present, the lists above are not read. */
  opencode?: OpencodeRules;
  /** Gemini CLI's rules, by priority (gemini-match.ts); when present, the lists above are not read. */
  gemini?: GeminiRules;
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

/** How a part meets a host's rules. */
interface Matcher {
  /** The deny rule the part meets, as the host sees it (`direct`) or as only rtk does (`hidden`), with the form that met it; or null. */
  deny(p: Part, seen: "direct" | "hidden"): { rule: string; form: string } | null;
  /** The ask rule any form of the part meets, or null. */
  ask(p: Part): string | null;
  /** The allow rule the part meets as written, or null. */
  allow(p: Part): string | null;
  /** Some rule denies or asks. */
  restrictive: boolean;
  /** Deny rules written for several commands (they hold `&&`, `||`, `;` or `|`), tried on every run of consecutive commands. */
  listDeny: readonly string[];
}

/** The lists: any deny rule in any form, any ask rule in any form, an allow rule as written. */
function listMatcher(rules: RuleSet): Matcher {
  return {
    deny(p, seen) {
      const forms = seen === "direct" ? p.denyForms : p.hiddenForms;
      const rule = first(rules.deny, forms);
      return rule === null ? null : { rule, form: forms.find((f) => matchesPattern(rule, f))! };
    },
    ask: (p) => first(rules.ask, [...p.denyForms, ...p.hiddenForms]),
    allow: (p) => rules.allow.find((r) => allows(r, p.text)) ?? null,
    restrictive: rules.deny.length > 0 || rules.ask.length > 0,
    listDeny: rules.deny.filter((r) => /&&|\|\||;|\|/.test(r)),
  };
}

/**
 * OpenCode's rules: a form's action is that of the last rule that matches it.
 * Its own text (assignments and redirects included) is the form OpenCode
 * judges; the others are tried too, as with the lists. A command OpenCode does
 * not judge (`cd`, `export`, …) meets no rule.
 */
function opencodeMatcher(rules: OpencodeRules, src: string): Matcher {
  const meets = (p: Part, forms: readonly string[], action: string) => {
    if (!opencodeJudges(p.cmd, src)) return null;
    for (const form of forms) {
      const r = opencodeAction(rules, form);
      if (r.action === action) return { rule: `${r.pattern}: ${r.action}`, form };
    }
    return null;
  };
  return {
    deny: (p, seen) => meets(p, seen === "direct" ? [opencodeText(p.cmd, src), ...p.denyForms] : p.hiddenForms, "deny"),
    ask: (p) => meets(p, [opencodeText(p.cmd, src), ...p.denyForms, ...p.hiddenForms], "ask")?.rule ?? null,
    allow(p) {
      if (!opencodeJudges(p.cmd, src)) return "(not judged by OpenCode's bash rules)";
      const r = opencodeAction(rules, opencodeText(p.cmd, src));
      return r.action === "allow" ? `${r.pattern}: allow` : null;
    },
    restrictive: rules.bash.some((r) => r.action !== "allow"),
    listDeny: [],
  };
}

/**
 * Gemini CLI's rules: each form is decided by the first rule, by priority, that
 * meets it. A deny or an ask is looked for in every form, as with the lists; an
 * allow in the text as written.
 */
function geminiMatcher(rules: GeminiRules): Matcher {
  const meets = (forms: readonly string[], decision: GeminiDecision, implicit = true) => {
    for (const form of forms) {
      const r = geminiDecide(rules, form);
      if (r?.decision === decision && (implicit || !r.implicit)) return { rule: r.rule, form };
    }
    return null;
  };
  return {
    deny: (p, seen) => (seen === "direct" ? meets(p.denyForms, "deny") : meets(p.hiddenForms, "deny", false)),
    ask: (p) => meets([...p.denyForms, ...p.hiddenForms], "ask")?.rule ?? null,
    allow: (p) => meets([p.text], "allow")?.rule ?? null,
    restrictive: rules.rules.some((r) => r.decision !== "allow"),
    listDeny: [],
  };
}

export function judge(script: A.Script, src: string, rules: RuleSet, facts: InputFacts = inputFacts(script), opts: JudgeOptions = {}): PermissionReport {
  const whole = src.trim();
  const raw = commandParts(script, src, opts);
  const hostVeto = opts.own?.whole?.(script, src, raw) ?? null;
  const m = rules.opencode ? opencodeMatcher(rules.opencode, src) : rules.gemini ? geminiMatcher(rules.gemini) : listMatcher(rules);
  const parts: PartVerdict[] = raw.map((p) => {
    const direct = m.deny(p, "direct");
    const hidden = direct === null ? m.deny(p, "hidden") : null;
    const own = opts.own?.part(p) ?? null;
    const allow = m.allow(p);
    const owned = own && "allow" in own ? own.allow : null;
    return {
      text: p.text,
      span: [p.span.start, p.span.end],
      deny: (direct ?? hidden)?.rule ?? null,
      denyForm: hidden?.form ?? null,
      // What bash runs is asked for in every form a deny rule is tried on (allow is earned as written only);
      // a command nested deeper than rtk reads is asked for whenever the host has deny or ask rules.
      ask: m.ask(p) ?? (own && "veto" in own ? own.veto : null) ?? (p.opaque && m.restrictive ? OPAQUE : null),
      allow,
      own: owned,
      through: opts.throughRtk && !allow && !owned ? allowedBehindRtk(p, src, rules, opts) : null,
    };
  });
  const unattestable = facts.unattestable?.why ?? null;
  // A deny rule written for several commands is tried on every run of consecutive commands; other rules on each command alone.
  const listRules = m.listDeny;
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
