// A host's rules as the permission source of the rewrite.
import type { Env } from "../config/hooks.js";
import type { PermissionSource } from "../rewrite/rewrite.js";
import { loadRules, type RuleFamily } from "./sources.js";
import { judge } from "./verdict.js";

export function hostPermissions(family: RuleFamily, cwd: string, env: Env, warn: (msg: string) => void): PermissionSource {
  let loaded: ReturnType<typeof loadRules> | undefined;
  return (script, src, facts) => {
    loaded ??= loadRules(family, cwd, env, warn);
    const report = judge(script, src, loaded.rules, facts);
    return { verdict: report.verdict, activeDeny: report.activeDeny, detail: { ...report, rules: family, files: loaded.files.filter((f) => f.status !== "missing") } };
  };
}
