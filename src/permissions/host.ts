// A host's rules as the permission source of the rewrite.
import type { Env } from "../config/hooks.js";
import type { PermissionSource, VerdictResult } from "../rewrite/rewrite.js";
import type { InputFacts } from "../rewrite/facts.js";
import type * as A from "../ast/nodes.js";
import { loadRules, type RuleFamily, type RuleFile, type RuleLoader } from "./sources.js";
import type { PartOptions } from "./parts.js";
import { judge, type RuleSet } from "./verdict.js";

export function hostPermissions(loader: RuleLoader, cwd: string, env: Env, warn: (msg: string) => void, parts: PartOptions = {}): PermissionSource {
  let loaded: ReturnType<typeof loadRules> | undefined;
  return (script, src, facts) => {
    loaded ??= loadRules(loader, cwd, env, warn);
    return verdictOf(script, src, facts, loaded.rules, parts, { rules: loader.family, files: loaded.files.filter((f) => f.status !== "missing") });
  };
}

/** The verdict of a rule set on a parsed command, as the rewrite reports it. */
export function verdictOf(script: A.Script, src: string, facts: InputFacts, rules: RuleSet, parts: PartOptions, source: { rules: RuleFamily; files: RuleFile[] }): VerdictResult {
  const report = judge(script, src, rules, facts, parts);
  return {
    verdict: report.verdict,
    activeDeny: report.activeDeny,
    asked: report.verdict === "ask" && report.parts.some((p) => p.ask !== null),
    detail: { ...report, ...source },
  };
}
