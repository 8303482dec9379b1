// Where each host keeps its permission rules, and how its entries map onto
// deny / ask / allow patterns. Missing files are skipped silently; a file that
// cannot be read or parsed is skipped with one warning.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Env } from "../config/hooks.js";
import type { RuleSet } from "./verdict.js";

/** The name a rule source is reported by (`explain --json`'s `rules`). */
export type RuleFamily = string;

/** Where one family of hosts keeps its rules: read into `rules` through `add`. */
export interface RuleLoader {
  family: RuleFamily;
  read(ctx: RuleCtx, add: RuleAdder): void;
}

/** Adds a file's entries to one list; `tool` names the host's shell tool in `Tool(pattern)` entries (null: bare patterns). */
export type RuleAdder = (into: "deny" | "ask" | "allow", entries: unknown, tool: string | null) => void;

export interface RuleFile {
  path: string;
  status: "read" | "missing" | "invalid";
  error?: string;
}

export interface LoadedRules {
  rules: RuleSet;
  files: RuleFile[];
}

export interface RuleCtx {
  cwd: string;
  env: Env;
  warn: (msg: string) => void;
  files: RuleFile[];
}

export function loadRules(loader: RuleLoader, cwd: string, env: Env, warn: (msg: string) => void): LoadedRules {
  const ctx: RuleCtx = { cwd: resolve(cwd), env, warn, files: [] };
  const rules = { deny: [] as string[], ask: [] as string[], allow: [] as string[] };
  loader.read(ctx, (into, entries, tool) => {
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (typeof e !== "string") continue;
      const p = tool === null ? e : toolPattern(e, tool);
      if (p !== null) rules[into].push(p);
    }
  });
  return { rules, files: ctx.files };
}

export const CLAUDE_RULES: RuleLoader = {
  family: "claude",
  read(ctx, add) {
    for (const doc of claudeFiles(ctx).map((f) => readJson(f, ctx))) {
      const perms = obj(obj(doc)?.["permissions"]);
      add("deny", perms?.["deny"], "Bash");
      add("ask", perms?.["ask"], "Bash");
      add("allow", perms?.["allow"], "Bash");
    }
  },
};

export const CURSOR_RULES: RuleLoader = {
  family: "cursor",
  read(ctx, add) {
    const perms = obj(obj(readJson(join(home(ctx.env), ".cursor", "cli-config.json"), ctx))?.["permissions"]);
    add("deny", perms?.["deny"], "Shell");
    add("allow", perms?.["allow"], "Shell");
  },
};

export const GEMINI_RULES: RuleLoader = {
  family: "gemini",
  read(ctx, add) {
    const project = projectRoot(ctx.cwd, ".gemini", home(ctx.env));
    const file = project && geminiTrusted(project, ctx) ? join(project, ".gemini", "settings.json") : join(home(ctx.env), ".gemini", "settings.json");
    const doc = obj(readJson(file, ctx));
    const tools = obj(doc?.["tools"]);
    for (const tool of ["run_shell_command", "ShellTool"]) {
      add("allow", tools?.["allowed"], tool);
      add("ask", tools?.["confirmationRequired"], tool);
      // Gemini matches its excluded commands against the command it runs: `rtk …` would slip past them.
      add("deny", tools?.["exclude"], tool);
      add("deny", doc?.["excludeTools"], tool);
    }
  },
};

export const FACTORY_RULES: RuleLoader = {
  family: "factory",
  read(ctx, add) {
    const dirs = [join(home(ctx.env), ".factory")];
    const project = projectRoot(ctx.cwd, ".factory", home(ctx.env));
    if (project) dirs.push(join(project, ".factory"));
    for (const d of unique(dirs)) {
      for (const name of ["settings.json", "settings.local.json"]) {
        const doc = obj(readJson(join(d, name), ctx));
        add("deny", doc?.["commandDenylist"], null);
        add("deny", doc?.["commandBlocklist"], null);
      }
    }
  },
};

/**
 * GitHub Copilot: Claude Code's settings (VS Code reads them), and Copilot CLI's
 * `--deny-tool` / `--allow-tool` options. Those live only on the command line of
 * the running `copilot`, so they are read from the hook's ancestor processes
 * (Linux `/proc`; elsewhere they cannot be read). `shell(git push)` → `git push`.
 */
export const COPILOT_RULES: RuleLoader = {
  family: "copilot",
  read(ctx, add) {
    CLAUDE_RULES.read(ctx, add);
    const cli = copilotCommandLine(ctx.env);
    if (!cli) return;
    ctx.files.push({ path: cli.source, status: "read" });
    add("deny", cli.deny, "shell");
    add("allow", cli.allow, "shell");
  },
};

/** The `--deny-tool` / `--allow-tool` values of the nearest ancestor process that is Copilot CLI. */
export function copilotCommandLine(env: Env, start = process.ppid): { source: string; deny: string[]; allow: string[] } | null {
  const proc = env["RTK_PROC_ROOT"] || "/proc";
  let pid = start;
  for (let depth = 0; depth < 12 && pid > 1; depth++) {
    let argv: string[];
    let stat: string;
    try {
      argv = readFileSync(join(proc, String(pid), "cmdline"), "utf8")
        .split("\0")
        .filter((a) => a.length > 0);
      stat = readFileSync(join(proc, String(pid), "stat"), "utf8");
    } catch {
      return null;
    }
    if (argv.some((a) => /(^|\/)copilot(\.js|\.exe)?$/.test(a) || /@github\/copilot/.test(a))) {
      const deny: string[] = [];
      const allow: string[] = [];
      for (let i = 0; i < argv.length; i++) {
        const m = /^--(deny|allow)-tool(?:=(.*))?$/.exec(argv[i]!);
        if (!m) continue;
        const value = m[2] ?? argv[++i];
        if (value !== undefined) (m[1] === "deny" ? deny : allow).push(...toolList(value));
      }
      return { source: join(proc, String(pid), "cmdline"), deny, allow };
    }
    // The parent's pid follows the command name, which is in parentheses and may hold any character.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!Number.isInteger(ppid) || ppid === pid) return null;
    pid = ppid;
  }
  return null;
}

/** `shell(git push),shell(npm:*)` → its entries: commas inside parentheses belong to a pattern. */
function toolList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of value) {
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    if (c === "," && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * OpenCode: `permission.bash` (pattern → allow | ask | deny, or one action for
 * every command; `permission["*"]` when there is no `bash` key) and the newer
 * `permissions` list (`{action: "shell", resource, effect}`), from the user's
 * config, `$OPENCODE_CONFIG`, and every `opencode.json(c)` from the project's
 * top down to the working folder. OpenCode takes the last matching rule; rtk
 * reads every deny and ask pattern as such, which is never more permissive. A
 * rule for every command (`*`) also judges the rewritten `rtk …` command, so it
 * is no reason to leave a command alone. `?` (one character) is read as `*` in
 * deny and ask patterns (broader), and an allow pattern with it is not used.
 */
export const OPENCODE_RULES: RuleLoader = {
  family: "opencode",
  read(ctx, add) {
    for (const file of opencodeFiles(ctx)) {
      const doc = obj(readJson(file, ctx));
      if (!doc) continue;
      const perm = doc["permission"];
      const bash = typeof perm === "string" ? perm : (obj(perm)?.["bash"] ?? obj(perm)?.["*"]);
      if (typeof bash === "string") addOpencode(add, "*", bash);
      else for (const [pattern, action] of Object.entries(obj(bash) ?? {})) addOpencode(add, pattern, action);
      const list = doc["permissions"];
      if (Array.isArray(list)) {
        for (const r of list) {
          const rule = obj(r);
          const action = rule?.["action"];
          if (action !== "shell" && action !== "bash" && action !== "*") continue;
          if (typeof rule?.["resource"] === "string") addOpencode(add, rule["resource"], rule["effect"]);
        }
      }
    }
  },
};

function addOpencode(add: RuleAdder, pattern: string, action: unknown): void {
  if (action !== "deny" && action !== "ask" && action !== "allow") return;
  const p = pattern.trim();
  if (action !== "allow" && /^\*+$/.test(p)) return;
  if (action === "allow") {
    if (!p.includes("?")) add("allow", [p], null);
  } else add(action, [p.replaceAll("?", "*")], null);
}

function opencodeFiles(ctx: RuleCtx): string[] {
  const configHome = ctx.env["XDG_CONFIG_HOME"] || join(home(ctx.env), ".config");
  const files = ["opencode.json", "opencode.jsonc", "config.json"].map((n) => join(configHome, "opencode", n));
  if (ctx.env["OPENCODE_CONFIG"]) files.push(resolve(ctx.cwd, ctx.env["OPENCODE_CONFIG"]));
  // From the project's top (the git top level, never above HOME) down to the working folder.
  const dirs: string[] = [];
  const userHome = home(ctx.env);
  for (let dir = ctx.cwd; ; dir = dirname(dir)) {
    if (dir === userHome) break;
    dirs.push(dir);
    if (exists(join(dir, ".git")) || dirname(dir) === dir) break;
  }
  for (const d of dirs.reverse()) for (const n of ["opencode.json", "opencode.jsonc", join(".opencode", "opencode.json"), join(".opencode", "opencode.jsonc")]) files.push(join(d, n));
  return unique(files);
}

/** Hosts without rules of their own (plugins, rules-only files, Kiro). */
export const NO_RULES: RuleLoader = { family: "none", read() {} };

/** `Bash(git push:*)` → `git push:*`; a bare `Bash` → `*`; another tool's entry → null. */
function toolPattern(entry: string, tool: string): string | null {
  const e = entry.trim();
  if (e === tool) return "*";
  if (e.startsWith(tool + "(") && e.endsWith(")")) return e.slice(tool.length + 1, -1);
  return null;
}

/** The user's home folder, as the hook's environment names it. */
export function home(env: Env): string {
  return env["HOME"] || homedir();
}

function claudeFiles(ctx: RuleCtx): string[] {
  const user = ctx.env["CLAUDE_CONFIG_DIR"] || join(home(ctx.env), ".claude");
  const files: string[] = ["/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json"];
  const project = projectRoot(ctx.cwd, ".claude", home(ctx.env));
  if (project) files.push(join(project, ".claude", "settings.json"), join(project, ".claude", "settings.local.json"));
  files.push(join(user, "settings.json"), join(user, "settings.local.json"));
  return unique(files);
}

/**
 * The nearest ancestor of `cwd` holding the host's folder, else the git top
 * level, else null. HOME itself is never a project: its host folder is the user's.
 */
export function projectRoot(cwd: string, folder: string, home?: string): string | null {
  let gitTop: string | null = null;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (dir !== home && isDir(join(dir, folder))) return dir;
    if (gitTop === null && exists(join(dir, ".git"))) gitTop = dir;
    if (dirname(dir) === dir) return gitTop;
  }
}

function geminiTrusted(project: string, ctx: RuleCtx): boolean {
  const doc = obj(readJson(join(home(ctx.env), ".gemini", "trustedFolders.json"), ctx));
  if (!doc) return false;
  let trusted = false;
  for (const [path, level] of Object.entries(doc)) {
    const p = resolve(path);
    const inside = (root: string) => project === root || project.startsWith(root.endsWith("/") ? root : root + "/");
    if (level === "DO_NOT_TRUST" && project === p) return false;
    if (level === "TRUST_FOLDER" && inside(p)) trusted = true;
    if (level === "TRUST_PARENT" && inside(dirname(p))) trusted = true;
  }
  return trusted;
}

function readJson(path: string, ctx: RuleCtx): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      ctx.files.push({ path, status: "missing" });
    } else {
      ctx.files.push({ path, status: "invalid", error: (e as Error).message });
      ctx.warn(`rtk: cannot read ${path}: ${(e as Error).message}; its rules are ignored`);
    }
    return null;
  }
  try {
    const doc = JSON.parse(jsoncToJson(text.replace(/^\uFEFF+/, "")));
    ctx.files.push({ path, status: "read" });
    return doc;
  } catch (e) {
    ctx.files.push({ path, status: "invalid", error: (e as Error).message });
    ctx.warn(`rtk: ${path} is not valid JSON (${(e as Error).message}); its rules are ignored`);
    return null;
  }
}

/**
 * JSONC as JSON: settings files of some hosts allow line and block comments, and
 * OpenCode's and VS Code's may end a list or object with a comma. One pass that
 * skips strings: a comma is dropped when only blanks and comments stand between
 * it and the `}` or `]` it precedes.
 */
function jsoncToJson(text: string): string {
  if (!text.includes("/") && !text.includes(",")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      // The comment goes; a line comment's line end stays.
      i = commentEnd(text, i) - 1;
    } else if (c === ",") {
      const next = text[pastBlanks(text, i + 1)];
      if (next !== "}" && next !== "]") out += c;
    } else out += c;
  }
  return out;
}

/** Where the comment starting at `i` ends (the index after it; a line comment's line end stays outside). */
function commentEnd(text: string, i: number): number {
  if (text[i + 1] === "/") {
    const nl = text.indexOf("\n", i);
    return nl < 0 ? text.length : nl;
  }
  const end = text.indexOf("*/", i + 2);
  return end < 0 ? text.length : end + 2;
}

/** The index of the first character from `i` that is neither white space nor in a comment. */
function pastBlanks(text: string, i: number): number {
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) i = commentEnd(text, i);
    else break;
  }
  return i;
}

function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
