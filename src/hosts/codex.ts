// Codex CLI: Claude-shaped PreToolUse events with a permission_mode (`default`,
// or `bypassPermissions` under the approval policy `never`). Codex applies a
// replacement only together with `permissionDecision: "allow"` (it has no other
// way to replace a command, and refuses "ask"), and that allow grants nothing:
// Codex runs its own rules, approval policy and sandbox on the replacement.
// Its rules cannot see through `rtk …`, though, so a command one of them
// forbids, prompts for or allows (an allowed command runs outside the sandbox)
// is left to Codex as typed (no answer), and one the agent typed behind `rtk`
// itself that they forbid or prompt for is denied with the reason. Codex runs
// the command in the user's login shell, not with its hook's PATH
// (host-shell.ts), and runs the hook only once the user has trusted it
// (codex-trust.ts).
import { Budget, parse } from "../../grammar/parse.js";
import type { Env } from "../config/hooks.js";
import { loadCodexRestrictions, type CodexRestrictions } from "../permissions/codex-rules.js";
import { judge } from "../permissions/verdict.js";
import { fullRegistry } from "../routes/registry.js";
import { COMMAND_LIMITS, longerThan } from "../rewrite/limits.js";
import { claudeAnswer, claudeDeny, claudeSession, decodeClaudeShape, preToolUseTarget, type ClaudeCtx } from "./claude.js";
import { readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { dataDir } from "../config/paths.js";
import { codexOwn } from "../permissions/codex-own.js";
import { CLAUDE_RULES } from "../permissions/sources.js";
import { codexHome, codexHookTrust } from "./codex-trust.js";
import { dotFolder } from "./targets.js";
import { claudeLikeSample, SILENT, str, obj, type Check as DoctorCheck, type Host, type HookAnswer, type Where } from "./types.js";
import type { Outcome } from "../rewrite/outcome.js";

const PERMISSION_MODES = new Set(["default", "plan", "acceptEdits", "dontAsk", "bypassPermissions", "untrusted", "on-failure", "on-request", "never"]);

export interface CodexCtx extends ClaudeCtx {
  command: string;
  cwd: string;
  env: Env;
  warn: (msg: string) => void;
}

export const codex: Host = {
  name: "codex",
  title: "Codex CLI",
  tier: "hook",
  rules: CLAUDE_RULES,
  engine: { explicitAllow: true, own: codexOwn },
  shell: "login",
  hook: {
    decode(event, env, warn) {
      const mode = str(obj(event)?.["permission_mode"]);
      if (mode === undefined || !PERMISSION_MODES.has(mode)) return null;
      const d = decodeClaudeShape(event, ["Bash", "shell", "exec_command"]);
      if (!d) return null;
      return { ...d, ctx: { ...d.ctx, command: d.command, cwd: d.cwd ?? process.cwd(), env, warn } };
    },
    encode: (outcome, ctx: CodexCtx) => codexAnswer(outcome, ctx),
    passThrough: SILENT,
  },
  install: {
    target: preToolUseTarget(),
    scopes: dotFolder(".codex", ["hooks.json"], "CODEX_HOME"),
    defaultScope: "global",
    note: [
      "Codex skips a new or changed hook until you trust it: start Codex, type /hooks and trust `rtk hook codex` (again after an `rtk init` that changes it). `rtk doctor` says whether Codex trusts it.",
      "Codex runs hooks while `[features] hooks` is on in its config.toml (the default since Codex 0.124; older versions need `hooks = true` under `[features]`).",
    ].join("\n"),
  },
  session: claudeSession(),
  doctor: {
    sample: (command, cwd) => claudeLikeSample(command, cwd, "Bash", { permission_mode: "default" }),
    checks: (where, file) => [codexFeature(where), ...codexTrust(where, file), codexSandbox(where)],
  },
};

/** Codex's trust of rtk's hook in `file`: Codex skips it, silently, until the user trusts it. */
function codexTrust(where: Where, file: string): DoctorCheck[] {
  const fix = "start Codex, type /hooks and trust `rtk hook codex` (Codex keeps the trust by the hook's hash)";
  return codexHookTrust(file, where.env).map((t): DoctorCheck => {
    switch (t.status) {
      case "trusted":
        return { name: "codex trust", ok: true, detail: `Codex trusts rtk's hook (${t.key})` };
      case "untrusted":
        return { name: "codex trust", ok: false, detail: `Codex skips rtk's hook until you trust it (no trust recorded for ${t.key})`, fix };
      case "modified":
        return { name: "codex trust", ok: false, detail: `rtk's hook changed since you trusted it, so Codex skips it until you trust it again (${t.key})`, fix };
      case "disabled":
        return { name: "codex trust", ok: false, detail: `rtk's hook is disabled in Codex (${t.key})`, fix: "start Codex, type /hooks and enable `rtk hook codex`" };
    }
  });
}

/**
 * What Codex's sandbox leaves of rtk: commands run inside it (workspace-write,
 * read-only), where rtk's data folder is read-only unless it is under a
 * writable root. The compact output is the same; what needs the folder is lost.
 */
function codexSandbox(where: Where): DoctorCheck {
  const file = join(codexHome(where.env), "config.toml");
  let doc: Record<string, unknown> = {};
  try {
    doc = parseToml(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // no config: Codex's defaults
  }
  if (doc["sandbox_mode"] === "danger-full-access") return { name: "codex sandbox", ok: true, detail: "commands run outside a sandbox (sandbox_mode = danger-full-access)" };
  const data = dataDir(where.env);
  const roots = (obj(doc["sandbox_workspace_write"])?.["writable_roots"] as unknown[] | undefined) ?? [];
  const writable = [...roots.filter((r): r is string => typeof r === "string"), "/tmp", where.env["TMPDIR"] ?? "/tmp"].some((r) => within(data, r));
  if (writable && doc["sandbox_mode"] !== "read-only") return { name: "codex sandbox", ok: true, detail: `rtk's data folder ${data} is writable inside Codex's workspace-write sandbox` };
  return {
    name: "codex sandbox",
    ok: true,
    detail: `degraded inside Codex's sandbox (workspace-write or read-only), where ${data} is read-only: the compact output is the same, but those runs are not recorded (rtk gain misses them) and \`rtk recall\` cannot keep what a compact form leaves out (the marker says so)`,
    fix: `to keep both under workspace-write, add "${data}" to writable_roots under [sandbox_workspace_write] in ${file}`,
  };
}

function within(path: string, root: string): boolean {
  const r = relative(resolve(root), resolve(path));
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}

function codexFeature(where: Where): DoctorCheck {
  const file = join(where.env["CODEX_HOME"] || join(where.env["HOME"] || "", ".codex"), "config.toml");
  let features: Record<string, unknown> = {};
  try {
    const doc = parseToml(readFileSync(file, "utf8")) as Record<string, unknown>;
    features = (doc["features"] as Record<string, unknown>) ?? {};
  } catch {
    // No config (hooks are on by default) or one rtk cannot read: nothing to say about the flag.
  }
  const off = features["hooks"] === false || (features["hooks"] === undefined && features["codex_hooks"] === false);
  return off
    ? { name: "codex hooks", ok: false, detail: `hooks are switched off in ${file}`, fix: `set \`hooks = true\` under [features] in ${file}` }
    : { name: "codex hooks", ok: true, detail: "hooks are on (older Codex versions need `hooks = true` under [features])" };
}

function codexAnswer(outcome: Outcome, ctx: CodexCtx): HookAnswer {
  // Only a rewrite, or a command the agent typed behind `rtk`, can run something Codex's rules would stop.
  const concerned = ctx.env["RTK_DISABLED"] !== "1" && (outcome.kind === "rewrite" || (outcome.kind === "pass" && /(^|[^\w-])rtk\b/.test(ctx.command)));
  if (concerned) {
    const check = codexCheck(ctx, outcome.kind === "rewrite" ? outcome.command : null);
    if (check.kind === "unknown") {
      ctx.warn(`rtk hook codex: cannot read Codex's rules (${check.why}); the command is left to Codex`);
      return SILENT;
    }
    if (check.kind === "restricted") return SILENT;
    if (check.kind === "behind-rtk") return claudeDeny(check.reason);
  }
  return claudeAnswer(outcome, ctx, true);
}

type Check =
  | { kind: "free" }
  /** A rule matches the command as typed: Codex sees it without the rewrite. */
  | { kind: "restricted" }
  /** A rule matches only once the agent's own `rtk` is removed: Codex cannot see it. */
  | { kind: "behind-rtk"; reason: string }
  | { kind: "unknown"; why: string };

/** What Codex's rules make of the command, and of `rewritten` (the rewrite rtk would hand back, if any). */
function codexCheck(ctx: CodexCtx, rewritten: string | null): Check {
  const loaded = loadCodexRestrictions(ctx.cwd, ctx.env);
  if (!loaded.ok) return { kind: "unknown", why: loaded.error };
  const { forbidden, prompt, allowed } = loaded.value;
  const stopping = [...forbidden, ...prompt];
  const every = [...stopping, ...allowed];
  // An allowed command runs outside Codex's sandbox: its rewrite would run inside it.
  if (!stopping.length && !(rewritten !== null && allowed.length)) return { kind: "free" };
  // One past the rewrite's limits is not rewritten either: left to Codex now, it is not read twice.
  if (longerThan(ctx.command, COMMAND_LIMITS.maxBytes)) return { kind: "restricted" };
  const parsed = parse(ctx.command, { budget: Budget.of(COMMAND_LIMITS.timeMs, COMMAND_LIMITS.steps) });
  // A command rtk cannot read is not rewritten.
  if (!parsed.ok) return parsed.error.limit !== undefined ? { kind: "restricted" } : { kind: "free" };
  // Every kind goes through the deny matching: it also sees a command behind
  // wrappers, by its basename (`/usr/bin/git`) and without quotes, as Codex does.
  // Through the tools' global options too (`git -C . push` runs `git push`).
  const opts = { tools: fullRegistry().tools };
  const report = judge(parsed.script, ctx.command, { deny: stopping, ask: [], allow: [] }, undefined, opts);
  if (report.verdict === "deny") {
    // Only an agent-typed `rtk` gets rtk's own deny; anything else Codex judges as typed.
    const viaRtk = report.parts.some((p) => p.deny && p.denyForm !== null && /(^|\s|\/)rtk(\s|$)/.test(p.text));
    if (!report.activeDeny || !viaRtk) return { kind: "restricted" };
    return { kind: "behind-rtk", reason: behindRtkReason(report.parts.find((p) => p.deny)?.deny ?? "?", loaded.value) };
  }
  if (rewritten === null) return { kind: "free" };
  if (allowed.length && judge(parsed.script, ctx.command, { deny: allowed, ask: [], allow: [] }, undefined, opts).verdict === "deny") return { kind: "restricted" };
  // A rule the user wrote for `rtk …` itself would judge the rewrite (run it unprompted and unsandboxed, ask, or forbid it) where the command as typed was not.
  const after = parse(rewritten);
  if (!after.ok) return { kind: "restricted" };
  const named = judge(after.script, rewritten, { deny: every, ask: [], allow: [] }, undefined, opts).parts.some((p) => p.deny && p.denyForm === null);
  return named ? { kind: "restricted" } : { kind: "free" };
}

function behindRtkReason(rule: string, r: CodexRestrictions): string {
  return r.forbidden.includes(rule)
    ? `rtk: Codex's rules forbid \`${rule}\` (the \`rtk\` prefix does not change what the command runs)`
    : `rtk: Codex's rules ask before \`${rule}\`; run the command without the \`rtk\` prefix so that Codex can ask (the prefix does not change what it runs)`;
}
