// The verdict of a host's rules on a command: deny > unattestable ask > ask >
// allow (only when every part is allowed) > default. Never more permissive than
// the host itself would be.
import type * as A from "../ast/nodes.js";
import { inputFacts, type InputFacts } from "../rewrite/facts.js";
import type { Verdict } from "../rewrite/rewrite.js";
import { commandParts, listTexts } from "./parts.js";
import { matchesPattern } from "./pattern.js";

export interface RuleSet {
  deny: readonly string[];
  ask: readonly string[];
  allow: readonly string[];
}

export interface PartVerdict {
  text: string;
  span: [number, number];
  deny: string | null;
  /** The deny rule matched only once the agent's own `rtk` was removed. */
  denyViaRtk: boolean;
  ask: string | null;
  allow: string | null;
}

export interface PermissionReport {
  verdict: Verdict;
  /** rtk must answer with the host's deny itself: the host's rules cannot see through an agent-typed `rtk`. */
  activeDeny: boolean;
  unattestable: string | null;
  parts: PartVerdict[];
}

const first = (rules: readonly string[], forms: readonly string[]) => rules.find((r) => forms.some((f) => matchesPattern(r, f))) ?? null;

export function judge(script: A.Script, src: string, rules: RuleSet, facts: InputFacts = inputFacts(script)): PermissionReport {
  const whole = src.trim();
  const parts: PartVerdict[] = commandParts(script, src).map((p) => {
    const direct = first(rules.deny, p.denyForms);
    const viaRtk = direct === null ? first(rules.deny, p.rtkForms) : null;
    return {
      text: p.text,
      span: [p.span.start, p.span.end],
      deny: direct ?? viaRtk,
      denyViaRtk: direct === null && viaRtk !== null,
      // An agent-typed `rtk` hides nothing from an ask rule either (never from allow).
      ask: first(rules.ask, [p.text, ...p.rtkForms]),
      allow: first(rules.allow, [p.text]),
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
    activeDeny = !wholeDeny && parts.every((p) => !p.deny || p.denyViaRtk);
  } else if (unattestable) verdict = "ask";
  else if (parts.some((p) => p.ask)) verdict = "ask";
  else if (rules.allow.length && parts.length && parts.every((p) => p.allow)) verdict = "allow";
  else verdict = "default";
  return { verdict, activeDeny, unattestable, parts };
}
