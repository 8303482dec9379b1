// What Claude Code runs unprompted with no rule naming it, by permission mode.
// In `bypassPermissions` mode it runs every command its deny and ask rules do not
// name. In `default`, `acceptEdits`, `plan` and `dontAsk` it runs a read-only set
// of commands whose paths stay inside the project (claude-readonly.ts); anything
// else it asks about (or, in `dontAsk`, refuses). Other modes: nothing is known.
import { isAbsolute, relative, resolve } from "node:path";
import { claudeReadOnly, readsPaths } from "./claude-readonly.js";
import type { OwnAllow, RuleSet } from "./verdict.js";

export interface ClaudeOwnContext {
  mode: string | undefined;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

const BYPASS: OwnAllow = { part: () => ({ allow: "bypassPermissions mode" }) };

const READ_ONLY_MODES = new Set(["default", "acceptEdits", "plan", "dontAsk"]);

export function claudeOwn(ctx: ClaudeOwnContext, rules: RuleSet): OwnAllow | null {
  const mode = ctx.mode ?? "default";
  if (mode === "bypassPermissions") return BYPASS;
  if (!READ_ONLY_MODES.has(mode)) return null;
  // Claude Code reads within the folder it started in, which its hooks are told as CLAUDE_PROJECT_DIR.
  const project = resolve(ctx.env["CLAUDE_PROJECT_DIR"] || ctx.cwd);
  const cwd = resolve(ctx.cwd);
  const rel = relative(project, cwd);
  if (rel.startsWith("..") || isAbsolute(rel)) return null;
  const readOnly = claudeReadOnly({ cwd, project });
  if (!rules.readDeny?.length) return readOnly;
  // `Read(…)` deny rules: Claude Code denies a command that reads a path they name, which rtk does not judge.
  return {
    whole: readOnly.whole,
    part: (p) => (readsPaths(p.cmd) ? { veto: "a Read(…) deny rule may name what it reads" } : readOnly.part(p)),
  };
}

/** A rewrite answered `allow` runs in every mode but `plan`, where Claude Code honours a hook's allow only for a command it deems read-only. */
export const claudeExplicitAllow = (mode: string | undefined): boolean => mode !== "plan";
