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
    const doc = JSON.parse(stripJsonComments(text.replace(/^\uFEFF+/, "")));
    ctx.files.push({ path, status: "read" });
    return doc;
  } catch (e) {
    ctx.files.push({ path, status: "invalid", error: (e as Error).message });
    ctx.warn(`rtk: ${path} is not valid JSON (${(e as Error).message}); its rules are ignored`);
    return null;
  }
}

/** Settings files of some hosts allow line and block comments. */
function stripJsonComments(text: string): string {
  if (!text.includes("/")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out;
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
