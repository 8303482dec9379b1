// Codex's own command rules, from every place Codex's documentation names:
//  - the `.rules` files in the `rules/` folder of each config layer: the user's
//    ($CODEX_HOME, default ~/.codex), the system's (/etc/codex), and the projects'
//    (`.codex/` in the working folder and, inside a repository, in each folder up
//    to its root; Codex reads them only in a trusted project, rtk reads them
//    always, which can only restrict more);
//  - the `[rules] prefix_rules` of admin requirements: /etc/codex/requirements.toml,
//    macOS managed preferences, and the cloud requirements Codex keeps in
//    $CODEX_HOME/cloud-requirements-cache.json.
// Codex checks the command it runs against them: after a rewrite that is `rtk …`,
// which none of them matches. So the Codex hook leaves a command they forbid or
// prompt for to Codex, and one they allow too: an allowed command runs outside
// Codex's sandbox, where its rewrite would run inside it. A source rtk cannot
// read exactly leaves every command to Codex: rtk cannot tell what it would
// restrict.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { Env } from "../config/hooks.js";
import { parseRulesFile, type CodexRule, type Parsed, type PatternToken } from "./codex-starlark.js";
import { exists, home as homeOf } from "./sources.js";

/** The commands Codex's rules forbid, prompt for or allow, as rtk patterns (`git push`). */
export interface CodexRestrictions {
  forbidden: string[];
  prompt: string[];
  /** Run unprompted and outside the sandbox. */
  allowed: string[];
}

/** Where the system-wide sources are; tests point them at temporary folders. */
export interface CodexSystemPaths {
  /** The system config layer (`/etc/codex`): its `rules/` and `requirements.toml`. */
  etc: string;
  /** macOS managed preferences (`/Library/Managed Preferences`), or null off macOS. */
  managedPreferences: string | null;
}

export const SYSTEM_PATHS: CodexSystemPaths = {
  etc: "/etc/codex",
  managedPreferences: process.platform === "darwin" ? "/Library/Managed Preferences" : null,
};

/** Past this many patterns (alternatives multiply) the rules are not expanded: every command is left to Codex. */
export const MAX_PATTERNS = 4096;

export function loadCodexRestrictions(cwd: string, env: Env, system: CodexSystemPaths = SYSTEM_PATHS): Parsed<CodexRestrictions> {
  const rules: CodexRule[] = [];
  const codexHome = codexHomeOf(env);
  for (const dir of ruleDirs(cwd, codexHome, system)) {
    const files = rulesFiles(dir);
    if (!files.ok) return files;
    for (const file of files.value) {
      const text = readText(file);
      if (!text.ok) return text;
      if (text.value === null) continue;
      const parsed = parseRulesFile(text.value);
      if (!parsed.ok) return { ok: false, error: `${file}: ${parsed.error}` };
      rules.push(...parsed.value);
    }
  }
  for (const source of requirementSources(env, codexHome, system)) {
    const got = source();
    if (!got.ok) return got;
    rules.push(...got.value);
  }
  return restrictionsOf(rules);
}

function codexHomeOf(env: Env): string {
  return env["CODEX_HOME"] || join(homeOf(env), ".codex");
}

function ruleDirs(cwd: string, codexHome: string, system: CodexSystemPaths): string[] {
  const dirs = [join(codexHome, "rules"), join(system.etc, "rules")];
  for (const d of projectLayers(resolve(cwd))) {
    const project = join(d, ".codex", "rules");
    if (!dirs.includes(project)) dirs.push(project);
  }
  return dirs;
}

/** The folders whose `.codex/` is a project layer: the cwd and, inside a repository, each folder up to its root. */
function projectLayers(cwd: string): string[] {
  const chain: string[] = [];
  for (let d = cwd; ; d = dirname(d)) {
    chain.push(d);
    if (exists(join(d, ".git"))) return chain;
    if (dirname(d) === d) return [cwd];
  }
}

const missing = (e: unknown) => ["ENOENT", "ENOTDIR"].includes((e as NodeJS.ErrnoException).code ?? "");

/** The `.rules` files of a folder, in name order (as Codex loads them); none when the folder does not exist. */
function rulesFiles(dir: string): Parsed<string[]> {
  try {
    const names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory() && e.name.endsWith(".rules") && e.name !== ".rules")
      .map((e) => e.name)
      .sort();
    return { ok: true, value: names.map((n) => join(dir, n)) };
  } catch (e) {
    return missing(e) ? { ok: true, value: [] } : { ok: false, error: `${dir}: ${(e as Error).message}` };
  }
}

/** A file's text; null when it does not exist (or is a folder); an error when it exists and cannot be read. */
function readText(path: string): Parsed<string | null> {
  try {
    return { ok: true, value: readFileSync(path, "utf8") };
  } catch (e) {
    if (missing(e) || (e as NodeJS.ErrnoException).code === "EISDIR") return { ok: true, value: null };
    return { ok: false, error: `${path}: ${(e as Error).message}` };
  }
}

// ---- admin requirements -------------------------------------------------------------------

function requirementSources(env: Env, codexHome: string, system: CodexSystemPaths): (() => Parsed<CodexRule[]>)[] {
  const sources = [() => requirementsFile(join(system.etc, "requirements.toml")), () => cloudRequirements(join(codexHome, "cloud-requirements-cache.json"))];
  if (system.managedPreferences) {
    const user = env["USER"] || env["LOGNAME"];
    const plists = [join(system.managedPreferences, "com.openai.codex.plist")];
    if (user) plists.push(join(system.managedPreferences, user, "com.openai.codex.plist"));
    for (const p of plists) sources.push(() => managedPreferences(p));
  }
  return sources;
}

function requirementsFile(path: string): Parsed<CodexRule[]> {
  const text = readText(path);
  if (!text.ok) return text;
  return text.value === null ? { ok: true, value: [] } : requirementsText(text.value, path);
}

function requirementsText(text: string, where: string): Parsed<CodexRule[]> {
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch (e) {
    return { ok: false, error: `${where}: not valid TOML (${(e as Error).message.split("\n")[0]})` };
  }
  const rules = requirementsRules(doc);
  return rules.ok ? rules : { ok: false, error: `${where}: ${rules.error}` };
}

/**
 * The `[rules] prefix_rules` of a requirements document, with Codex's checks:
 * each pattern token is `{ token = "…" }` or `{ any_of = […] }`, and the
 * decision is `prompt` or `forbidden` (an `allow` there is refused).
 */
export function requirementsRules(doc: unknown): Parsed<CodexRule[]> {
  const table = record(doc)?.["rules"];
  if (table === undefined) return { ok: true, value: [] };
  const list = record(table)?.["prefix_rules"];
  if (!Array.isArray(list) || list.length === 0) return { ok: false, error: "[rules] needs a non-empty prefix_rules list" };
  const rules: CodexRule[] = [];
  for (const [k, entry] of list.entries()) {
    const r = record(entry);
    const where = `rules prefix_rule ${k}`;
    if (!r) return { ok: false, error: `${where} is not a table` };
    const pattern = r["pattern"];
    if (!Array.isArray(pattern) || pattern.length === 0) return { ok: false, error: `${where} needs a non-empty pattern` };
    const tokens: PatternToken[] = [];
    for (const t of pattern) {
      const tok = record(t);
      const single = tok?.["token"];
      const anyOf = tok?.["any_of"];
      if (typeof single === "string" && anyOf === undefined && single.trim()) tokens.push(single);
      else if (single === undefined && Array.isArray(anyOf) && anyOf.length && anyOf.every((a) => typeof a === "string" && a.trim())) {
        tokens.push(anyOf.length === 1 ? anyOf[0] : anyOf);
      } else return { ok: false, error: `${where} has a pattern token that is neither { token = "…" } nor { any_of = […] }` };
    }
    const decision = r["decision"];
    if (decision !== "prompt" && decision !== "forbidden") {
      return { ok: false, error: `${where}: the decision must be "prompt" or "forbidden" (found ${JSON.stringify(decision ?? null)})` };
    }
    if (r["reviewer"] !== undefined && decision !== "prompt") return { ok: false, error: `${where}: a reviewer needs decision "prompt"` };
    const just = r["justification"];
    if (just !== undefined && (typeof just !== "string" || !just.trim())) return { ok: false, error: `${where}: empty justification` };
    rules.push({ pattern: tokens, decision });
  }
  return { ok: true, value: rules };
}

/** Codex's cache of the cloud-managed requirements: `signed_payload.contents` holds the requirements TOML. */
function cloudRequirements(path: string): Parsed<CodexRule[]> {
  const text = readText(path);
  if (!text.ok) return text;
  if (text.value === null) return { ok: true, value: [] };
  let payload: Record<string, unknown> | null;
  try {
    payload = record(record(JSON.parse(text.value))?.["signed_payload"]);
  } catch {
    payload = null;
  }
  if (!payload) return { ok: false, error: `${path}: not the cloud requirements rtk knows how to read` };
  const contents = payload["contents"];
  if (contents === undefined || contents === null) return { ok: true, value: [] };
  if (typeof contents !== "string") return { ok: false, error: `${path}: not the cloud requirements rtk knows how to read` };
  return requirementsText(contents, `${path} (cloud requirements)`);
}

const MDM_KEY = "requirements_toml_base64";

/**
 * macOS managed preferences: the requirements are the base64 value of
 * `requirements_toml_base64`. An XML property list is read; a binary one
 * that holds the key cannot be, so it blocks the rules.
 */
function managedPreferences(path: string): Parsed<CodexRule[]> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return missing(e) ? { ok: true, value: [] } : { ok: false, error: `${path}: ${(e as Error).message}` };
  }
  if (!bytes.includes(MDM_KEY)) return { ok: true, value: [] };
  const text = bytes.toString("utf8");
  const m = new RegExp(`<key>\\s*${MDM_KEY}\\s*</key>\\s*<string>([^<]*)</string>`).exec(text);
  if (bytes.subarray(0, 6).toString("latin1") === "bplist" || !m) {
    return { ok: false, error: `${path}: managed requirements rtk cannot read (convert the property list to XML to let rtk read them)` };
  }
  return requirementsText(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64").toString("utf8"), `${path} (${MDM_KEY})`);
}

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

// ---- rules as rtk patterns ------------------------------------------------------------------

/**
 * Each rule, by its decision, as the rtk patterns of its token sequences.
 * rtk's patterns read `*` as a wildcard: a token holding one ends the
 * pattern in ` *`, which matches at least what the token does.
 */
export function restrictionsOf(rules: readonly CodexRule[]): Parsed<CodexRestrictions> {
  const out: CodexRestrictions = { forbidden: [], prompt: [], allowed: [] };
  let count = 0;
  for (const rule of rules) {
    const into = rule.decision === "forbidden" ? out.forbidden : rule.decision === "prompt" ? out.prompt : out.allowed;
    let prefixes = [""];
    let open = false;
    for (const tok of rule.pattern) {
      const alts = typeof tok === "string" ? [tok] : tok;
      if (alts.some((a) => a.includes("*"))) {
        open = true;
        break;
      }
      prefixes = prefixes.flatMap((p) => alts.map((a) => (p ? `${p} ${a}` : a)));
      if (count + prefixes.length > MAX_PATTERNS) {
        return { ok: false, error: `more than ${MAX_PATTERNS} command prefixes once the alternatives are expanded` };
      }
    }
    count += prefixes.length;
    into.push(...prefixes.map((p) => (open ? (p ? `${p} *` : "*") : p)));
  }
  return { ok: true, value: out };
}
