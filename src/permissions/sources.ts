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

/** Where one family of hosts keeps its rules: read into `rules` through `add`, or returned when they are not lists (OpenCode's, in order; Gemini CLI's, by priority). */
export interface RuleLoader {
  family: RuleFamily;
  read(ctx: RuleCtx, add: RuleAdder): void | Pick<RuleSet, "opencode" | "gemini">;
}

/** Adds a file's entries to one list; `tool` names the host's shell tool in `Tool(pattern)` entries (null: bare patterns). */
export type RuleAdder = (into: "deny" | "ask" | "allow" | "readDeny", entries: unknown, tool: string | null) => void;

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
  /** The host's mode for this command, when its rules depend on it (OpenCode's agent). */
  mode?: string;
  warn: (msg: string) => void;
  files: RuleFile[];
}

export function loadRules(loader: RuleLoader, cwd: string, env: Env, warn: (msg: string) => void, mode?: string): LoadedRules {
  const ctx: RuleCtx = { cwd: resolve(cwd), env, warn, files: [], ...(mode !== undefined ? { mode } : {}) };
  const rules: RuleSet = { deny: [] as string[], ask: [] as string[], allow: [] as string[], readDeny: [] as string[] };
  const own = loader.read(ctx, (into, entries, tool) => {
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (typeof e !== "string") continue;
      const p = tool === null ? e : toolPattern(e, tool);
      if (p !== null) (rules[into] as string[]).push(p);
    }
  });
  return { rules: own ? { ...rules, ...own } : rules, files: ctx.files };
}

/**
 * Claude Code's settings. A project's shared `.claude/settings.json` gives its
 * allow rules only once the project is trusted (`hasTrustDialogAccepted` in
 * `~/.claude.json`); its deny and ask rules apply either way. `Read(…)` deny
 * rules are kept for the path check Claude Code makes on what a command reads.
 */
export const CLAUDE_RULES: RuleLoader = claudeRules(true);

/** Claude Code's settings as another host reads them, its shared project file's allow rules taken as they are. */
export const CLAUDE_SETTINGS_RULES: RuleLoader = claudeRules(false);

function claudeRules(trustGated: boolean): RuleLoader {
  return {
    family: "claude",
    read(ctx, add) {
      const shared = trustGated ? claudeSharedSettings(ctx) : null;
      for (const file of claudeFiles(ctx)) {
        const perms = obj(obj(readJson(file, ctx))?.["permissions"]);
        add("deny", perms?.["deny"], "Bash");
        add("ask", perms?.["ask"], "Bash");
        add("readDeny", perms?.["deny"], "Read");
        const allow = perms?.["allow"];
        if (file === shared && Array.isArray(allow) && allow.length && !claudeTrusted(dirname(dirname(file)), ctx)) continue;
        add("allow", allow, "Bash");
      }
    },
  };
}

/** The project's shared settings file, whose allow rules wait for the project to be trusted. */
function claudeSharedSettings(ctx: RuleCtx): string | null {
  const project = claudeProject(ctx);
  return project ? join(project, ".claude", "settings.json") : null;
}

/** Whether the user accepted Claude Code's trust dialog for exactly this folder. */
function claudeTrusted(project: string, ctx: RuleCtx): boolean {
  const config = ctx.env["CLAUDE_CONFIG_DIR"] ? join(ctx.env["CLAUDE_CONFIG_DIR"], ".claude.json") : join(home(ctx.env), ".claude.json");
  const projects = obj(obj(readJson(config, ctx))?.["projects"]);
  return obj(projects?.[project])?.["hasTrustDialogAccepted"] === true;
}

/** The project Claude Code runs in: `CLAUDE_PROJECT_DIR` in its hooks, else the nearest folder holding `.claude/` (or the git top level). */
function claudeProject(ctx: RuleCtx): string | null {
  const dir = ctx.env["CLAUDE_PROJECT_DIR"];
  if (dir && isDir(dir)) return resolve(dir);
  return projectRoot(ctx.cwd, ".claude", home(ctx.env));
}

export const CURSOR_RULES: RuleLoader = {
  family: "cursor",
  read(ctx, add) {
    const perms = obj(obj(readJson(join(home(ctx.env), ".cursor", "cli-config.json"), ctx))?.["permissions"]);
    add("deny", perms?.["deny"], "Shell");
    add("allow", perms?.["allow"], "Shell");
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
 * GitHub Copilot: Copilot CLI's `--deny-tool` / `--allow-tool` options, which
 * live only on the command line of the running `copilot`, so they are read from
 * the hook's ancestor processes (Linux `/proc`; elsewhere they cannot be read).
 * `shell(git push)` → `git push`. Claude Code's settings only where no Copilot
 * CLI runs the hook (VS Code reads them; Copilot CLI 1.0.102 reads none of them,
 * trusted folder or not: test/hosts-real/copilot.real.ts).
 */
export const COPILOT_RULES: RuleLoader = {
  family: "copilot",
  read(ctx, add) {
    const cli = copilotCommandLine(ctx.env);
    if (!cli) return CLAUDE_RULES.read(ctx, add);
    ctx.files.push({ path: cli.source, status: "read" });
    add("deny", cli.deny, "shell");
    add("allow", cli.allow, "shell");
  },
};

/**
 * The `--deny-tool` / `--allow-tool` values of the nearest ancestor process that is Copilot CLI, and whether it runs
 * with every permission (`--yolo`, `--allow-all`, or `--allow-all-tools`, `--allow-all-paths` and `--allow-all-urls`
 * together), where it runs every command its deny rules do not name.
 */
export function copilotCommandLine(env: Env, start = process.ppid): { source: string; deny: string[]; allow: string[]; allowAll: boolean } | null {
  const found = ancestorCommandLine(env, (argv) => argv.some((a) => /(^|\/)copilot(\.js|\.exe)?$/.test(a) || /@github\/copilot/.test(a)), start);
  if (!found) return null;
  const values = optionValues(found.argv, ["deny-tool", "allow-tool"]);
  const has = (flag: string) => found.argv.includes(flag);
  const allowAll = has("--yolo") || has("--allow-all") || (has("--allow-all-tools") && has("--allow-all-paths") && has("--allow-all-urls"));
  return { source: found.source, deny: values["deny-tool"]!.flatMap(toolList), allow: values["allow-tool"]!.flatMap(toolList), allowAll };
}

/** The command line of the nearest ancestor process `isHost` recognises (Linux `/proc`, or `RTK_PROC_ROOT`). */
export function ancestorCommandLine(env: Env, isHost: (argv: string[]) => boolean, start = process.ppid): { source: string; argv: string[] } | null {
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
    if (isHost(argv)) return { source: join(proc, String(pid), "cmdline"), argv };
    // The parent's pid follows the command name, which is in parentheses and may hold any character.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!Number.isInteger(ppid) || ppid === pid) return null;
    pid = ppid;
  }
  return null;
}

/** The values of each `--name value` / `--name=value` option in `argv`. */
export function optionValues(argv: readonly string[], names: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(argv[i]!);
    if (!m || !names.includes(m[1]!)) continue;
    const value = m[2] ?? argv[++i];
    if (value !== undefined) out[m[1]!]!.push(value);
  }
  return out;
}

/**
 * Continue's CLI (`cn`): `~/.continue/permissions.yaml` (`allow`, `ask` and
 * `exclude` lists of `Bash(glob)` entries) and the `--allow` / `--ask` /
 * `--exclude` options of the running `cn`. An excluded command is denied. A
 * rule for the whole tool also judges the rewritten `rtk …` command, so it is
 * no reason to leave a command alone.
 */
export const CONTINUE_RULES: RuleLoader = {
  family: "continue",
  read(ctx, add) {
    const addLists = (lists: Record<string, unknown>) => {
      add("deny", wholeToolDropped(lists["exclude"]), "Bash");
      add("ask", wholeToolDropped(lists["ask"]), "Bash");
      add("allow", lists["allow"], "Bash");
    };
    const doc = readYamlLists(join(home(ctx.env), ".continue", "permissions.yaml"), ctx);
    if (doc) addLists(doc);
    const cli = ancestorCommandLine(ctx.env, (argv) => argv.some((a) => /(^|\/)cn$/.test(a) || /@continuedev\/cli/.test(a)));
    if (!cli) return;
    ctx.files.push({ path: cli.source, status: "read" });
    addLists(optionValues(cli.argv, ["allow", "ask", "exclude"]));
  },
};

function wholeToolDropped(entries: unknown): unknown {
  return Array.isArray(entries) ? entries.filter((e) => typeof e !== "string" || !/^Bash(\(\**\))?$/.test(e.trim())) : entries;
}

/**
 * A YAML file of top-level lists (`key:` then `- item` lines, or `key: [a, "b"]`),
 * the shape Continue documents for its permissions; anything else makes the file
 * invalid (one warning; its rules are ignored, as with any file rtk cannot read).
 */
function readYamlLists(path: string, ctx: RuleCtx): Record<string, string[]> | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") ctx.files.push({ path, status: "missing" });
    else {
      ctx.files.push({ path, status: "invalid", error: (e as Error).message });
      ctx.warn(`rtk: cannot read ${path}: ${(e as Error).message}; its rules are ignored`);
    }
    return null;
  }
  const out: Record<string, string[]> = {};
  let key: string | null = null;
  const lines = text.replace(/^\uFEFF+/, "").split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trimEnd();
    if (!line.trim() || /^\s*#/.test(line)) continue;
    const top = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    const item = /^\s*-\s+(.*)$/.exec(line);
    let problem: string | null = null;
    if (top) {
      key = top[1]!;
      const list: string[] = [];
      out[key] = list;
      const rest = top[2]!.trim().replace(/^(\[.*\])\s+#.*$|^#.*$/s, "$1");
      if (rest.startsWith("[") && rest.endsWith("]")) {
        for (const part of splitFlow(rest.slice(1, -1))) {
          const v = yamlScalar(part);
          if (v === null) problem = `an entry of ${key} is not a string`;
          else list.push(v);
        }
      } else if (rest) problem = `${key} is not a list`;
    } else if (item && key !== null) {
      const v = yamlScalar(item[1]!);
      if (v === null) problem = `an entry of ${key} is not a string`;
      else out[key]!.push(v);
    } else problem = "not a list of rules";
    if (problem) {
      ctx.files.push({ path, status: "invalid", error: `line ${n + 1}: ${problem}` });
      ctx.warn(`rtk: ${path}: line ${n + 1}: ${problem}; its rules are ignored`);
      return null;
    }
  }
  ctx.files.push({ path, status: "read" });
  return out;
}

/** `a, "b, c", 'd'` → its parts (commas inside quotes belong to a part). */
function splitFlow(text: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let quote: string | null = null;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ",") {
      parts.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur.trim()) parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** A plain, single- or double-quoted YAML string; null for anything else (a nested list or map). */
function yamlScalar(raw: string): string | null {
  // A comment follows a space; a `#` inside quotes is the pattern's.
  const single = /^'((?:[^']|'')*)'(?:\s+#.*)?$/s.exec(raw.trim());
  if (single) return single[1]!.replaceAll("''", "'");
  const double = /^("(?:[^"\\]|\\.)*")(?:\s+#.*)?$/s.exec(raw.trim());
  if (double) {
    try {
      return JSON.parse(double[1]!) as string;
    } catch {
      return null;
    }
  }
  const v = raw.replace(/\s+#.*$/s, "").trim();
  if (!v || /^[[{&*!|>%@`'"]/.test(v) || /^-\s/.test(v)) return null;
  return v;
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

/** Hosts without rules of their own (plugins, rules-only files, Kiro). */
export const NO_RULES: RuleLoader = { family: "none", read() {} };

/**
 * Crush's rules are built into its bash tool (internal/agent/tools/bash.go, v0.63 to 0.96): it refuses a
 * command whose name is on its banned list (network clients, `sudo`, package managers, system and network
 * administration), and some subcommands (`apt-get install`, `npm install -g`, `go test -exec`, …), wherever it
 * stands in the command. Its shell sees only `rtk` in a rewrite, so they are rtk's to keep: read as deny rules
 * (a little wider than Crush's test of the words, never narrower).
 */
export const CRUSH_RULES: RuleLoader = {
  family: "crush",
  read(_ctx, add) {
    add("deny", [...CRUSH_BANNED, ...CRUSH_BLOCKED], null);
  },
};

const CRUSH_BANNED = [
  ...["alias", "aria2c", "axel", "chrome", "curl", "curlie", "firefox", "http-prompt", "httpie", "links", "lynx", "nc", "safari", "scp", "ssh", "telnet", "w3m", "wget", "xh"],
  ...["doas", "su", "sudo"],
  ...["apk", "apt", "apt-cache", "apt-get", "dnf", "dpkg", "emerge", "home-manager", "makepkg", "opkg", "pacman", "paru", "pkg", "pkg_add", "pkg_delete", "portage", "rpm", "yay", "yum", "zypper"],
  ...["at", "batch", "chkconfig", "crontab", "fdisk", "mkfs", "mount", "parted", "service", "systemctl", "umount"],
  ...["firewall-cmd", "ifconfig", "ip", "iptables", "netstat", "pfctl", "route", "ufw"],
];

/** Crush's subcommand blocks: the words after the command, then options anywhere (`npm install x -g`). */
const CRUSH_BLOCKED = [
  ...["apk add", "apt install", "apt-get install", "dnf install", "pkg install", "yum install", "zypper install"].map((c) => `${c}:*`),
  ...["brew install", "cargo install", "gem install", "go install", "yarn global add"].map((c) => `${c}:*`),
  "pacman*-S *",
  ...["npm install* --global*", "npm install* -g*", "pip install* --user*", "pip3 install* --user*", "pnpm add* --global*", "pnpm add* -g*"],
  "go test* -exec*",
];

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
  const project = claudeProject(ctx);
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

/** A JSON (or JSONC) settings file, or null when it is missing or invalid (recorded in `ctx.files`); `text` sees its text first. */
export function readJson(path: string, ctx: RuleCtx, text: (raw: string) => string = (raw) => raw): unknown {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
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
    const doc = JSON.parse(jsoncToJson(text(raw.replace(/^\uFEFF+/, ""))));
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
export function jsoncToJson(text: string): string {
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

/** `v` when it is a JSON object, else null. */
export function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The value the last of `layers` (settings files in the order a host reads them) that sets it gives. */
export function lastSet(layers: readonly (Record<string, unknown> | null)[], get: (d: Record<string, unknown>) => unknown): unknown {
  let value: unknown;
  for (const d of layers) {
    const v = d ? get(d) : undefined;
    if (v !== undefined) value = v;
  }
  return value;
}

/**
 * Whether a process's command line is the Node program `name` of the npm package `pkg`: the program itself, or
 * the script node runs after its own options (a host that relaunches itself passes some), by name or inside the package.
 */
export function isNodeProgram(argv: readonly string[], name: string, pkg: string): boolean {
  const program = new RegExp(`(^|/)${name}(\\.js)?$`);
  return [argv[0], argv.slice(1).find((a) => !a.startsWith("-"))].some((a) => a !== undefined && (program.test(a) || a.includes(pkg)));
}

export function isDir(p: string): boolean {
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
