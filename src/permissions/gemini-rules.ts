// Where Gemini CLI's rules for its shell tool come from (checked against Gemini
// CLI 0.61.0, its bundled source), and what rtk makes of them
// (gemini-match.ts applies them):
//  - the settings, merged in Gemini's order: the system defaults, the user's
//    `~/.gemini/settings.json`, the workspace's `.gemini/settings.json` in the
//    folder Gemini runs in (when that folder is trusted), the system settings.
//    A list set in a later file replaces the earlier one, but `tools.exclude`
//    gathers them all. `tools.allowed` entries `run_shell_command(<prefix>)`
//    allow (priority 4.3), and once there is one, every other command is denied
//    just below them (4.29); the whole tool in `tools.exclude` denies every
//    command (4.4), in `tools.confirmationRequired` asks (4.35). Entries of
//    those two lists that name a command are a tool name Gemini does not have:
//    it ignores them, and rtk leaves those commands as typed (an ask of its own).
//    The bare tool in `tools.allowed` lets Gemini ask about what it deems
//    dangerous, which rtk cannot tell, and `tools.core` holds in some modes
//    only: neither earns an allow here.
//  - the policy files: the user's (`~/.gemini/policies/*.toml`, or the
//    settings' `policyPaths`; priority 4 + p/1000) and the admin's
//    (`/etc/gemini-cli/policies`, when root owns it and no one else may write
//    it, else the settings' `adminPolicyPaths`; 5 + p/1000). A `[[rule]]` for
//    the shell tool (or `*`) with a `commandPrefix` is read as it is; one rtk
//    cannot apply for certain (a regex, an approval mode, interactive or not, a
//    subagent) asks at its priority, and so does a file rtk cannot read.
//    Extension policies sit below every allow rtk reads and cannot allow;
//    workspace policies are switched off in 0.61.
// The running `gemini`'s own `--allowed-tools`, `--policy` and `--admin-policy`
// take the place of the settings they stand for; rtk reads them from the hook's
// ancestor processes (Linux `/proc`; elsewhere they cannot be read).
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { Env } from "../config/hooks.js";
import { geminiOrder, type GeminiDecision, type GeminiRule, type GeminiRules } from "./gemini-match.js";
import { ancestorCommandLine, home, isNodeProgram, lastSet, obj, optionValues, readJson, type RuleCtx, type RuleLoader } from "./sources.js";

/** The system folder Gemini CLI reads its settings and admin policies from; tests point it at a temporary folder. */
export const GEMINI_SYSTEM = {
  config: process.platform === "darwin" ? "/Library/Application Support/GeminiCli" : process.platform === "win32" ? "C:\\ProgramData\\gemini-cli" : "/etc/gemini-cli",
};

export const GEMINI_RULES: RuleLoader = {
  family: "gemini",
  read(ctx) {
    return { gemini: geminiRules(ctx) };
  },
};

const SHELL = ["run_shell_command", "ShellTool"];
const ALLOWED = 4.3;
const NARROWING = ALLOWED - 0.01;
const CONFIRMATION_REQUIRED = 4.35;
const EXCLUDED = 4.4;
const USER_TIER = 4;
const ADMIN_TIER = 5;
const MODES = ["default", "autoEdit", "yolo", "plan"];

type Json = Record<string, unknown>;

/** Gemini's rules for its shell tool in `ctx.cwd`, highest priority first. */
export function geminiRules(ctx: RuleCtx, system = GEMINI_SYSTEM): GeminiRules {
  const env = ctx.env;
  const geminiDir = join(env["GEMINI_CLI_HOME"] || home(env), ".gemini");
  const systemFile = env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] || join(system.config, "settings.json");
  const defaultsFile = env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] || join(dirname(systemFile), "system-defaults.json");
  const secured = (path: string) => (secureFile(path) ? obj(readJson(path, ctx)) : null);
  const defaults = secured(defaultsFile);
  const user = obj(readJson(join(geminiDir, "settings.json"), ctx));
  const sys = secured(systemFile);
  const folderTrust = lastSet([defaults, user, sys], (d) => obj(obj(d["security"])?.["folderTrust"])?.["enabled"]);
  const cwd = resolve(ctx.cwd);
  const workspace = cwd !== resolve(env["GEMINI_CLI_HOME"] || home(env)) && trusted(cwd, env, folderTrust !== false, geminiDir, ctx) ? obj(readJson(join(cwd, ".gemini", "settings.json"), ctx)) : null;
  const layers = [defaults, user, workspace, sys];
  const tools = (key: string) => (d: Json) => obj(d["tools"])?.[key];
  const cli = geminiCommandLine(env);
  if (cli) ctx.files.push({ path: cli.source, status: "read" });
  const flag = (name: string) => (cli?.options[name]?.length ? cli.options[name] : undefined);
  const rules: GeminiRule[] = [];
  const allowed = flag("allowed-tools") ?? strings(lastSet(layers, tools("allowed")));
  for (const entry of allowed) {
    const prefix = shellArgs(entry);
    if (prefix === undefined) continue;
    // The bare tool lets Gemini ask about what it deems dangerous: rtk cannot tell which commands.
    rules.push({ decision: prefix === null ? "ask" : "allow", priority: ALLOWED, prefix, rule: `tools.allowed: ${entry}` });
  }
  if (allowed.some((e) => typeof shellArgs(e) === "string"))
    rules.push({ decision: "deny", priority: NARROWING, prefix: null, rule: "tools.allowed (every command it does not name)", implicit: true });
  for (const entry of strings(lastSet(layers, tools("confirmationRequired")))) {
    const prefix = shellArgs(entry);
    if (prefix !== undefined) rules.push({ decision: "ask", priority: CONFIRMATION_REQUIRED, prefix, rule: `tools.confirmationRequired: ${entry}` });
  }
  for (const entry of new Set(layers.flatMap((d) => (d ? strings(tools("exclude")(d)) : [])))) {
    const prefix = shellArgs(entry);
    if (prefix !== undefined) rules.push({ decision: prefix === null ? "deny" : "ask", priority: EXCLUDED, prefix, rule: `tools.exclude: ${entry}` });
  }
  const policyPaths = flag("policy") ?? strings(lastSet(layers, (d) => d["policyPaths"]));
  const userDirs = policyPaths.length ? policyPaths.map((p) => resolve(cwd, expandPath(p, env))) : [join(geminiDir, "policies")];
  for (const dir of userDirs) rules.push(...policyRules(dir, USER_TIER, ctx));
  const adminDir = join(system.config, "policies");
  if (tomlFiles(adminDir).length) {
    if (secureDir(adminDir)) rules.push(...policyRules(adminDir, ADMIN_TIER, ctx));
  } else for (const p of flag("admin-policy") ?? strings(lastSet(layers, (d) => d["adminPolicyPaths"]))) rules.push(...policyRules(resolve(cwd, expandPath(p, env)), ADMIN_TIER, ctx));
  return { rules: geminiOrder(rules) };
}

const FLAGS = ["allowed-tools", "policy", "admin-policy"];

/** The options of the nearest ancestor process that is Gemini CLI (`node …/gemini …`), each value split at its commas as Gemini splits it. */
function geminiCommandLine(env: Env): { source: string; options: Record<string, string[]> } | null {
  const found = ancestorCommandLine(env, (argv) => isNodeProgram(argv, "gemini", "@google/gemini-cli"));
  if (!found) return null;
  const values = optionValues(found.argv, FLAGS);
  const options = Object.fromEntries(FLAGS.map((f) => [f, values[f]!.flatMap((v) => v.split(",").map((x) => x.trim())).filter(Boolean)]));
  return { source: found.source, options };
}

/** `run_shell_command(git status)` → `git status`; the bare tool → null; another tool → undefined. */
function shellArgs(entry: string): string | null | undefined {
  const m = /^([a-zA-Z0-9_-]+)\((.*)\)$/.exec(entry);
  if (m) return SHELL.includes(m[1]!) ? m[2]! : undefined;
  return SHELL.includes(entry) ? null : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** `~`, `$VAR` and `${VAR}` in a path from the settings. */
function expandPath(p: string, env: Env): string {
  const expanded = p.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? "");
  return expanded === "~" || expanded.startsWith("~/") ? join(home(env), expanded.slice(1)) : expanded;
}

/**
 * Whether Gemini trusts the folder it runs in (its workspace settings count only
 * then): its environment first (`--skip-trust` sets GEMINI_CLI_TRUST_WORKSPACE),
 * then folder trust switched off, then the longest entry of trustedFolders.json
 * that holds the folder. A folder no entry holds is not trusted.
 */
function trusted(dir: string, env: Env, folderTrust: boolean, geminiDir: string, ctx: RuleCtx): boolean {
  if (env["GEMINI_RESTRICTED_MODE"] === "true" || env["GEMINI_CLI_TRUST_WORKSPACE"] === "false") return false;
  if (env["GEMINI_CLI_TRUST_WORKSPACE"] === "true") return true;
  if (!folderTrust) return true;
  const doc = obj(readJson(env["GEMINI_CLI_TRUSTED_FOLDERS_PATH"] || join(geminiDir, "trustedFolders.json"), ctx));
  if (!doc) return false;
  const here = realPath(dir);
  let longest = -1;
  let level: unknown;
  for (const [path, value] of Object.entries(doc)) {
    const root = realPath(value === "TRUST_PARENT" ? dirname(path) : path);
    if ((here === root || here.startsWith(root.endsWith(sep) ? root : root + sep)) && path.length > longest) {
      longest = path.length;
      level = value;
    }
  }
  return level === "TRUST_FOLDER" || level === "TRUST_PARENT";
}

function realPath(p: string): string {
  try {
    return realpathSync(resolve(p));
  } catch {
    return resolve(p);
  }
}

/** Root owns it and no one else may write it (Gemini skips a system file, and a folder holding it, that fail this). */
function secureStat(path: string, dir: boolean): boolean {
  try {
    const s = statSync(path);
    return s.isDirectory() === dir && s.uid === 0 && (s.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** A system settings file Gemini reads: missing, or it and every folder above it secure. */
function secureFile(path: string): boolean {
  try {
    statSync(path);
  } catch {
    return true;
  }
  if (!secureStat(path, false)) return false;
  for (let d = dirname(resolve(path)); ; d = dirname(d)) {
    if (!secureStat(d, true)) return false;
    if (dirname(d) === d) return true;
  }
}

function secureDir(path: string): boolean {
  return process.platform === "win32" || secureStat(path, true);
}

/** The `.toml` files a policy path names: the folder's, or the file itself. */
function tomlFiles(path: string): string[] {
  try {
    if (statSync(path).isFile()) return path.endsWith(".toml") ? [path] : [];
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".toml"))
      .map((e) => join(path, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** The shell rules of the policy files at `path`, their priorities in `tier`. */
function policyRules(path: string, tier: number, ctx: RuleCtx): GeminiRule[] {
  const out: GeminiRule[] = [];
  for (const file of tomlFiles(path)) {
    let doc: Json;
    try {
      doc = parseToml(readFileSync(file, "utf8")) as Json;
    } catch (e) {
      out.push(unread(file, (e as Error).message, ctx));
      continue;
    }
    const rules = doc["rule"] ?? [];
    if (!Array.isArray(rules) || !rules.every(validRule)) {
      out.push(unread(file, "a [[rule]] is not of Gemini's schema", ctx));
      continue;
    }
    ctx.files.push({ path: file, status: "read" });
    if (Array.isArray(doc["safety_checker"]) && doc["safety_checker"].some((c) => namesShell(obj(c)?.["toolName"]))) {
      out.push({ decision: "ask", priority: Infinity, prefix: null, rule: `${file}: a safety checker for the shell tool (rtk cannot tell what it decides)` });
    }
    for (const r of rules as Json[]) out.push(...shellRules(r, tier, file));
  }
  return out;
}

/** A file rtk cannot read asks for every command, above every rule. */
function unread(file: string, why: string, ctx: RuleCtx): GeminiRule {
  ctx.files.push({ path: file, status: "invalid", error: why });
  ctx.warn(`rtk: ${file}: ${why}; every command is left to Gemini CLI`);
  return { decision: "ask", priority: Infinity, prefix: null, rule: `${file} (not read: ${why})` };
}

const DECISIONS: Record<string, GeminiDecision> = { allow: "allow", deny: "deny", ask_user: "ask" };

function validRule(v: unknown): boolean {
  const r = obj(v);
  if (!r) return false;
  const strOrList = (x: unknown) => typeof x === "string" || (Array.isArray(x) && x.every((s) => typeof s === "string"));
  const optional = (k: string, ok: (x: unknown) => boolean) => r[k] === undefined || ok(r[k]);
  return (
    strOrList(r["toolName"]) &&
    typeof r["decision"] === "string" &&
    r["decision"] in DECISIONS &&
    Number.isInteger(r["priority"]) &&
    (r["priority"] as number) >= 0 &&
    (r["priority"] as number) <= 999 &&
    optional("commandPrefix", strOrList) &&
    optional("modes", (m) => Array.isArray(m) && m.every((x) => MODES.includes(x as string))) &&
    optional("interactive", (x) => typeof x === "boolean") &&
    ["subagent", "mcpName", "argsPattern", "commandRegex", "denyMessage", "deny_message"].every((k) => optional(k, (x) => typeof x === "string"))
  );
}

function namesShell(toolName: unknown): boolean {
  const names = typeof toolName === "string" ? [toolName] : strings(toolName);
  return names.some((n) => n === "*" || n === "run_shell_command");
}

/** One `[[rule]]` as the shell tool meets it. */
function shellRules(r: Json, tier: number, file: string): GeminiRule[] {
  if (r["mcpName"] !== undefined || r["toolAnnotations"] !== undefined || !namesShell(r["toolName"])) return [];
  const priority = tier + (r["priority"] as number) / 1000;
  const modes = strings(r["modes"]);
  // Gemini builds the rule's pattern from the first of these it has.
  const prefixes = r["commandPrefix"] === undefined ? null : typeof r["commandPrefix"] === "string" ? [r["commandPrefix"]] : strings(r["commandPrefix"]);
  const regex = prefixes === null && (typeof r["commandRegex"] === "string" || typeof r["argsPattern"] === "string");
  // Whether the rule applies, and to what, rtk cannot always tell: it asks there.
  const uncertain = regex || r["subagent"] !== undefined || r["interactive"] !== undefined || (modes.length > 0 && !MODES.every((m) => modes.includes(m)));
  let decision = DECISIONS[r["decision"] as string]!;
  if (uncertain || (decision === "allow" && prefixes === null)) decision = "ask";
  const what = prefixes
    ? `commandPrefix ${JSON.stringify(r["commandPrefix"])}`
    : regex
      ? `${typeof r["commandRegex"] === "string" ? "commandRegex" : "argsPattern"} ${JSON.stringify(r["commandRegex"] ?? r["argsPattern"])}`
      : "the shell tool";
  const rule = `${file}: ${r["decision"]} ${what} (priority ${r["priority"]}${modes.length ? `, modes ${modes.join(" ")}` : ""})`;
  if (regex || prefixes === null) return [{ decision, priority, prefix: null, rule }];
  return prefixes.map((prefix) => ({ decision, priority, prefix, rule }));
}
