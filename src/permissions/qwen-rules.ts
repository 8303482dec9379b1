// Where Qwen Code's rules for its shell tool come from (checked against Qwen
// Code 0.24.4, its bundled source), and what rtk makes of them:
//  - the settings of its system defaults, the user's `~/.qwen/settings.json`
//    ($QWEN_HOME), the workspace's `.qwen/settings.json` in the folder Qwen runs
//    in (not when that is HOME) and the system settings. `permissions.allow`,
//    `ask` and `deny` gather every file's entries; so does the older
//    `tools.exclude` (a deny), while the older `tools.allowed` (an allow) is the
//    last file's that sets it. With folder trust switched on (it is off unless
//    `security.folderTrust.enabled`) the workspace counts only once trusted,
//    which rtk does not read: its deny and ask rules are kept, its allows not.
//  - the running `qwen`'s `--allowed-tools` and `--exclude-tools`, read from the
//    hook's ancestor processes (Linux `/proc`; elsewhere they cannot be read).
// An entry for the shell tool is `Bash`, `Shell`, `ShellTool` or
// `run_shell_command`, bare (every command) or with a command pattern, which
// Qwen matches as rtk's pattern.ts does once translated (qwenPattern).
import { dirname, join, resolve } from "node:path";
import type { Env } from "../config/hooks.js";
import { ancestorCommandLine, home, isNodeProgram, lastSet, obj, readJson, type RuleLoader } from "./sources.js";

/** The system settings file Qwen Code reads (QWEN_CODE_SYSTEM_SETTINGS_PATH in its place). */
export const QWEN_SYSTEM = {
  settings:
    process.platform === "darwin" ? "/Library/Application Support/QwenCode/settings.json" : process.platform === "win32" ? "C:\\ProgramData\\qwen-code\\settings.json" : "/etc/qwen-code/settings.json",
};

const SHELL = new Set(["Bash", "Shell", "ShellTool", "run_shell_command"]);

export const QWEN_RULES: RuleLoader = {
  family: "qwen",
  read(ctx, add) {
    const env = ctx.env;
    const qwenDir = qwenHome(env);
    const systemFile = env["QWEN_CODE_SYSTEM_SETTINGS_PATH"] || QWEN_SYSTEM.settings;
    const defaults = obj(readJson(env["QWEN_CODE_SYSTEM_DEFAULTS_PATH"] || join(dirname(systemFile), "system-defaults.json"), ctx));
    const user = obj(readJson(join(qwenDir, "settings.json"), ctx));
    const system = obj(readJson(systemFile, ctx));
    const cwd = resolve(ctx.cwd);
    const workspace = cwd !== resolve(home(env)) ? obj(readJson(join(cwd, ".qwen", "settings.json"), ctx)) : null;
    const folderTrust = lastSet([defaults, user, system], (d) => obj(obj(d["security"])?.["folderTrust"])?.["enabled"]) === true;
    const layers = [defaults, user, workspace, system];
    const shell = (entries: unknown) => (Array.isArray(entries) ? entries.flatMap((e) => (typeof e === "string" ? shellPattern(e) : [])) : []);
    for (const d of layers) {
      if (!d) continue;
      const perms = obj(d["permissions"]);
      add("deny", shell(perms?.["deny"]), null);
      add("deny", shell(obj(d["tools"])?.["exclude"]), null);
      add("ask", shell(perms?.["ask"]), null);
      if (d === workspace && folderTrust) continue;
      add("allow", shell(perms?.["allow"]), null);
    }
    const trustedLayers = folderTrust ? [defaults, user, system] : layers;
    add("allow", shell(lastSet(trustedLayers, (d) => obj(d["tools"])?.["allowed"])), null);
    const cli = qwenCommandLine(env);
    if (!cli) return;
    ctx.files.push({ path: cli.source, status: "read" });
    add("allow", shell(cli.allowed), null);
    add("deny", shell(cli.excluded), null);
  },
};

/** `$QWEN_HOME` (its `~` expanded) or `~/.qwen`. */
function qwenHome(env: Env): string {
  const dir = env["QWEN_HOME"];
  if (!dir) return join(home(env), ".qwen");
  if (dir === "~" || dir.startsWith("~/")) return join(home(env), dir.slice(1));
  return resolve(dir);
}

/** A shell entry's pattern in rtk's language: `Bash` → `*`, `Shell(git *)` → `git *`; another tool's entry → none. */
export function shellPattern(entry: string): string[] {
  const e = entry.trim();
  const open = e.indexOf("(");
  if (open === -1) return SHELL.has(e) ? ["*"] : [];
  if (!SHELL.has(e.slice(0, open).trim()) || !e.endsWith(")")) return [];
  const spec = e.slice(open + 1, -1);
  return spec ? [qwenPattern(spec)] : ["*"];
}

/**
 * Qwen's command pattern as rtk's pattern.ts reads it. Qwen reads `:*` as ` *`;
 * a pattern without `*` matches the command or a longer one after a space
 * (rtk's `P *`); ` *` matches nothing or a space and anything; any other `*`
 * matches anything, which rtk's glob does only where a pattern has more than one
 * `*` or one not at the end (so it is doubled there: `git*` → `git**`).
 */
export function qwenPattern(spec: string): string {
  const p = spec.replace(/:\*/g, " *");
  if (p === "*") return "*";
  if (!p.includes("*")) return `${p} *`;
  return p.replace(/(?<! )\*/g, "**");
}

/** The `--allowed-tools` and `--exclude-tools` of the nearest ancestor process that is Qwen Code (`node …/qwen …`). */
function qwenCommandLine(env: Env): { source: string; allowed: string[]; excluded: string[] } | null {
  const found = ancestorCommandLine(env, (argv) => isNodeProgram(argv, "qwen", "@qwen-code/qwen-code"));
  if (!found) return null;
  return { source: found.source, allowed: arrayOption(found.argv, ["allowed-tools", "allowedTools"]), excluded: arrayOption(found.argv, ["exclude-tools", "excludeTools"]) };
}

/** The values of an array option (`--name a b`, `--name=a`, repeated). */
function arrayOption(argv: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([A-Za-z-]+)(?:=(.*))?$/s.exec(argv[i]!);
    if (!m || !names.includes(m[1]!)) continue;
    if (m[2] !== undefined) out.push(m[2]);
    else for (; i + 1 < argv.length && !argv[i + 1]!.startsWith("-"); i++) out.push(argv[i + 1]!);
  }
  return out;
}

const OPERATORS = ["&&", "||", ";;", "|&", "|", ";", "&", "\n"];
const BLANK = /^[ \t\n]+|[ \t\n]+$/g;

/**
 * The pieces Qwen Code matches its rules against, one by one: the command's text
 * split at its operators outside quotes (and `((…))`), blanks trimmed. A
 * grouping stays in its piece (`{ git status; }` → `{ git status`, `}`).
 */
export function qwenSegments(command: string): string[] {
  const out: string[] = [];
  let single = false;
  let double = false;
  let arithmetic = 0;
  let from = 0;
  const push = (end: number) => {
    const piece = command.slice(from, end).replace(BLANK, "");
    if (piece) out.push(piece);
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    if (single || double || c === "'" || c === '"') continue;
    if (c === "(" && command[i + 1] === "(") {
      arithmetic++;
      i++;
      continue;
    }
    if (arithmetic > 0 && c === ")" && command[i + 1] === ")") {
      arithmetic--;
      i++;
      continue;
    }
    const op = OPERATORS.find((o) => command.startsWith(o, i));
    if (!op || (op === "&" && (arithmetic > 0 || !asyncAmpersand(command, i)))) continue;
    push(i);
    from = i + op.length;
    i = from - 1;
  }
  push(command.length);
  return out;
}

/** A `&` that ends a command, not one of a redirection (`2>&1`, `&>`). */
function asyncAmpersand(command: string, at: number): boolean {
  if (command[at + 1] === ">") return false;
  for (let j = at - 1; j >= 0; j--) {
    const c = command[j]!;
    if (c === " " || c === "\t" || c === "\n") continue;
    if (c !== ">" && c !== "<") return true;
    let slashes = 0;
    for (let k = j - 1; k >= 0 && command[k] === "\\"; k--) slashes++;
    return slashes % 2 === 1;
  }
  return true;
}
