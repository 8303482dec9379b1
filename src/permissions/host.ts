// A host's rules as the permission source of the rewrite.
import type { Env } from "../config/hooks.js";
import type { PermissionSource, VerdictResult } from "../rewrite/rewrite.js";
import type { InputFacts } from "../rewrite/facts.js";
import type * as A from "../ast/nodes.js";
import { loadRules, type RuleFamily, type RuleFile, type RuleLoader } from "./sources.js";
import { heldReplacement, type HostEngine } from "./replacement.js";
import { judge, type JudgeOptions, type OwnAllow, type RuleSet } from "./verdict.js";

/**
 * The host's rules as the rewrite's permission source. With an `engine` (a host
 * that judges the command it is handed back), `opts.own` is what it runs
 * unprompted by itself, and a rewrite is held back unless the host runs the
 * original unprompted (permissions/replacement.ts). `mode` is the host's mode,
 * for a host whose rules depend on it.
 */
export function hostPermissions(
  loader: RuleLoader,
  cwd: string,
  env: Env,
  warn: (msg: string) => void,
  opts: JudgeOptions = {},
  engine?: HostEngine & { own?: (rules: RuleSet) => OwnAllow | null },
  mode?: string,
): PermissionSource {
  let loaded: ReturnType<typeof loadRules> | undefined;
  let judged: JudgeOptions | undefined;
  return (script, src, facts) => {
    loaded ??= loadRules(loader, cwd, env, warn, mode);
    judged ??= engine?.own ? { ...opts, own: engine.own(loaded.rules) } : opts;
    return verdictOf(script, src, facts, loaded.rules, judged, { rules: loader.family, files: loaded.files.filter((f) => f.status !== "missing") }, engine);
  };
}

/** The verdict of a rule set on a parsed command, as the rewrite reports it. */
export function verdictOf(script: A.Script, src: string, facts: InputFacts, rules: RuleSet, opts: JudgeOptions, source: { rules: RuleFamily; files: RuleFile[] }, engine?: HostEngine): VerdictResult {
  // A host whose answer can carry an allow is told when rtk runs a command it allows: the agent typed `rtk` before it.
  const report = judge(script, src, rules, facts, engine ? { ...opts, throughRtk: engine.explicitAllow } : { ...opts, own: null });
  return {
    verdict: report.verdict,
    activeDeny: report.activeDeny,
    asked: report.verdict === "ask" && report.parts.some((p) => p.ask !== null),
    throughRtk: report.verdict === "allow" && report.parts.some((p) => p.through !== null && !p.allow && !p.own),
    detail: { ...report, ...source },
    ...(engine ? { hold: (rewritten: string) => heldReplacement(report, rewritten, rules, opts, engine) } : {}),
  };
}
