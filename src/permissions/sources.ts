// Where each host keeps its permission rules, and how its entries map onto
// deny / ask / allow patterns. Missing files are skipped silently; a file that
// cannot be read or parsed is skipped with one warning.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Env } from "../config/hooks.js";
import type { RuleSet } from "./verdict.js";

export type RuleFamily = "claude" | "cursor" | "gemini" | "factory" | "none";

const HOST_RULES: Readonly<Record<string, RuleFamily>> = {
  claude: "claude", "claude-code": "claude", copilot: "claude", codex: "claude", devin: "claude",
  cursor: "cursor",
  gemini: "gemini",
  factory: "factory", droid: "factory",
  windsurf: "none", cline: "none", roo: "none", agents: "none", "rules-only": "none", opencode: "none", kiro: "none", none: "none",
};

/** Every host name `--host` takes. */
export function ruleHosts(): string[] {
  return Object.keys(HOST_RULES);
}

export function ruleFamily(host: string): RuleFamily | null {
  return Object.hasOwn(HOST_RULES, host) ? HOST_RULES[host]! : null;
}

export interface RuleFile {
  path: string;
  status: "read" | "missing" | "invalid";
  error?: string;
}

export interface LoadedRules {
  rules: RuleSet;
  files: RuleFile[];
}

interface Ctx {
  cwd: string;
  env: Env;
  warn: (msg: string) => void;
  files: RuleFile[];
}

export function loadRules(family: RuleFamily, cwd: string, env: Env, warn: (msg: string) => void): LoadedRules {
  const ctx: Ctx = { cwd: resolve(cwd), env, warn, files: [] };
  const rules = { deny: [] as string[], ask: [] as string[], allow: [] as string[] };
  const add = (into: string[], entries: unknown, tool: string | null) => {
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (typeof e !== "string") continue;
      const p = tool === null ? e : toolPattern(e, tool);
      if (p !== null) into.push(p);
    }
  };
  switch (family) {
    case "claude":
      for (const doc of claudeFiles(ctx).map((f) => readJson(f, ctx))) {
        const perms = obj(obj(doc)?.["permissions"]);
        add(rules.deny, perms?.["deny"], "Bash");
        add(rules.ask, perms?.["ask"], "Bash");
        add(rules.allow, perms?.["allow"], "Bash");
      }
      break;
    case "cursor": {
      const perms = obj(obj(readJson(join(home(env), ".cursor", "cli-config.json"), ctx))?.["permissions"]);
      add(rules.deny, perms?.["deny"], "Shell");
      add(rules.allow, perms?.["allow"], "Shell");
      break;
    }
    case "gemini": {
      const project = projectRoot(ctx.cwd, ".gemini", home(env));
      const file = project && geminiTrusted(project, ctx) ? join(project, ".gemini", "settings.json") : join(home(env), ".gemini", "settings.json");
      const doc = obj(readJson(file, ctx));
      const tools = obj(doc?.["tools"]);
      for (const tool of ["run_shell_command", "ShellTool"]) {
        add(rules.allow, tools?.["allowed"], tool);
        add(rules.ask, tools?.["confirmationRequired"], tool);
        // Gemini matches its excluded commands against the command it runs: `rtk …` would slip past them.
        add(rules.deny, tools?.["exclude"], tool);
        add(rules.deny, doc?.["excludeTools"], tool);
      }
      break;
    }
    case "factory": {
      const dirs = [join(home(env), ".factory")];
      const project = projectRoot(ctx.cwd, ".factory", home(env));
      if (project) dirs.push(join(project, ".factory"));
      for (const d of unique(dirs)) {
        for (const name of ["settings.json", "settings.local.json"]) {
          const doc = obj(readJson(join(d, name), ctx));
          add(rules.deny, doc?.["commandDenylist"], null);
          add(rules.deny, doc?.["commandBlocklist"], null);
        }
      }
      break;
    }
    case "none":
      break;
  }
  return { rules, files: ctx.files };
}

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

function claudeFiles(ctx: Ctx): string[] {
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

function geminiTrusted(project: string, ctx: Ctx): boolean {
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

function readJson(path: string, ctx: Ctx): unknown {
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
