// Where OpenCode's permission rules come from (checked against OpenCode 1.18.33,
// its source and the binary). Its settings merge in its order:
// the user's `config.json`, `opencode.json`, `opencode.jsonc`; `$OPENCODE_CONFIG`;
// the project's `opencode.json(c)` from the git top level down to the folder it
// runs in; `opencode.json(c)` in the `.opencode` folders from that folder up,
// `~/.opencode` and `$OPENCODE_CONFIG_DIR`; `$OPENCODE_CONFIG_CONTENT`; the
// managed folder; then `$OPENCODE_PERMISSION`, and the older `tools` switches
// beneath it. `permission` (a string is one action for every tool) and the
// running agent's own `permission` after it make one list of rules, each a tool
// (wildcards) and a pattern, after OpenCode's default of allowing every tool
// (how the list is applied: opencode-match.ts).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { OPENCODE_DEFAULT, type OpencodeAction, type OpencodeRule, type OpencodeRules } from "./opencode-match.js";
import { opencodeWildcard } from "./pattern.js";
import { exists, home, isDir, obj, readJson, type RuleCtx, type RuleLoader } from "./sources.js";

/**
 * How the plugin hands a rewrite back, and for which agent: `shell` replaces
 * the command in the shell OpenCode starts, after its permission check of the
 * command as typed; `args` (the default, for any other caller) replaces the
 * tool's arguments before the check, which then judges the rewritten text. The
 * mode is written `<delivery>` or `<delivery>:<agent>`.
 */
export function opencodeMode(mode: string | undefined): { delivery: "shell" | "args"; agent: string | undefined } {
  const [delivery, ...agent] = (mode ?? "").split(":");
  return { delivery: delivery === "shell" ? "shell" : "args", agent: agent.length ? agent.join(":") : undefined };
}

export const OPENCODE_RULES: RuleLoader = {
  family: "opencode",
  read(ctx) {
    return { opencode: opencodeRules(ctx) };
  },
};

type Json = Record<string, unknown>;

/** The merged settings OpenCode runs with in `ctx.cwd`, and what rtk could not read of them. */
function opencodeRules(ctx: RuleCtx): OpencodeRules {
  const env = ctx.env;
  const userHome = home(env);
  const configDir = join(env["XDG_CONFIG_HOME"] || join(userHome, ".config"), "opencode");
  const worktree = gitTop(ctx.cwd);
  const unread: string[] = [];
  let merged: Json = {};
  const take = (doc: unknown, where: string) => {
    const d = obj(doc);
    if (!d) return;
    if (d["permission"] !== undefined && !permissionConfig(d["permission"])) unread.push(`${where}: permission is not OpenCode's shape`);
    merged = mergeDeep(merged, normalised(d));
  };
  const file = (path: string) =>
    take(
      readJson(path, ctx, (text) => substituted(text, env, path, unread)),
      path,
    );
  for (const n of ["config.json", "opencode.json", "opencode.jsonc"]) file(join(configDir, n));
  if (env["OPENCODE_CONFIG"]) file(resolve(ctx.cwd, env["OPENCODE_CONFIG"]));
  const projectConfig = !env["OPENCODE_DISABLE_PROJECT_CONFIG"];
  if (projectConfig) for (const f of up(ctx.cwd, worktree, ["opencode.jsonc", "opencode.json"]).reverse()) file(f);
  const configDirEnv = env["OPENCODE_CONFIG_DIR"] ? resolve(ctx.cwd, env["OPENCODE_CONFIG_DIR"]) : null;
  const dirs = unique([
    configDir,
    ...(projectConfig ? up(ctx.cwd, worktree, [".opencode"]) : []),
    ...(isDir(join(userHome, ".opencode")) ? [join(userHome, ".opencode")] : []),
    ...(configDirEnv ? [configDirEnv] : []),
  ]);
  const markdownAgents = new Map<string, string>();
  for (const d of dirs) {
    if (d.endsWith(".opencode") || d === configDirEnv) for (const n of ["opencode.json", "opencode.jsonc"]) file(join(d, n));
    for (const [name, path] of agentFiles(d)) markdownAgents.set(name, path);
  }
  if (env["OPENCODE_CONFIG_CONTENT"]) take(parsed(env["OPENCODE_CONFIG_CONTENT"], unread, "OPENCODE_CONFIG_CONTENT"), "OPENCODE_CONFIG_CONTENT");
  const managed =
    env["OPENCODE_TEST_MANAGED_CONFIG_DIR"] ||
    (process.platform === "darwin" ? "/Library/Application Support/opencode" : process.platform === "win32" ? join(env["ProgramData"] || "C:\\ProgramData", "opencode") : "/etc/opencode");
  for (const n of ["opencode.json", "opencode.jsonc"]) file(join(managed, n));
  for (const [name, m] of Object.entries(obj(merged["mode"]) ?? {})) merged["agent"] = mergeDeep(obj(merged["agent"]) ?? {}, { [name]: { ...obj(m), mode: "primary" } });
  let permission = obj(merged["permission"]) ?? {};
  if (env["OPENCODE_PERMISSION"]) {
    const extra = parsed(env["OPENCODE_PERMISSION"], unread, "OPENCODE_PERMISSION");
    if (obj(extra)) permission = mergeDeep(permission, normalisedPermission(extra) as Json);
  }
  const tools = obj(merged["tools"]);
  if (tools) {
    const switches: Json = {};
    for (const [tool, on] of Object.entries(tools)) switches[tool === "write" || tool === "edit" || tool === "patch" ? "edit" : tool] = on ? "allow" : "deny";
    permission = mergeDeep(switches, permission);
  }
  if (remoteConfig(env, userHome)) unread.push("OpenCode also reads a remote config (a well-known entry in its auth.json)");
  const agent = opencodeMode(ctx.mode).agent ?? (typeof merged["default_agent"] === "string" ? merged["default_agent"] : "build");
  if (markdownAgents.has(agent)) unread.push(`the agent ${agent} is defined in ${markdownAgents.get(agent)}, whose permissions rtk does not read`);
  const agentPermission = obj(obj(obj(merged["agent"])?.[agent])?.["permission"]) ?? {};
  const bash = [OPENCODE_DEFAULT, ...bashRules(permission, userHome), ...bashRules(agentPermission, userHome)];
  return { bash, agent, unread: unread.length ? unread.join("; ") : null, directory: ctx.cwd, worktree };
}

/** The rules of a `permission` object that apply to the bash tool, in order (its keys are tool names with wildcards). */
function bashRules(permission: Json, userHome: string): OpencodeRule[] {
  const out: OpencodeRule[] = [];
  for (const [tool, value] of Object.entries(permission)) {
    if (!opencodeWildcard(tool, "bash")) continue;
    if (isAction(value)) out.push({ pattern: "*", action: value });
    else for (const [pattern, action] of Object.entries(obj(value) ?? {})) if (isAction(action)) out.push({ pattern: expandedHome(pattern, userHome), action });
  }
  return out;
}

const isAction = (v: unknown): v is OpencodeAction => v === "allow" || v === "ask" || v === "deny";

/** OpenCode expands a pattern's leading `~` or `$HOME` (the bash tool's too). */
function expandedHome(pattern: string, userHome: string): string {
  if (pattern.startsWith("~/")) return userHome + pattern.slice(1);
  if (pattern === "~") return userHome;
  if (pattern.startsWith("$HOME")) return userHome + pattern.slice(5);
  return pattern;
}

/** Whether a `permission` value has OpenCode's shape: an action, or tools to an action or to patterns and actions. */
function permissionConfig(v: unknown): boolean {
  if (isAction(v)) return true;
  const o = obj(v);
  return o !== null && Object.values(o).every((x) => isAction(x) || (obj(x) !== null && Object.values(obj(x)!).every(isAction)));
}

/** A file's settings as OpenCode reads them: a `permission` string is that action for every tool (the agents' too). */
function normalised(doc: Json): Json {
  const out: Json = { ...doc };
  if (out["permission"] !== undefined) out["permission"] = normalisedPermission(out["permission"]);
  for (const key of ["agent", "mode"]) {
    const agents = obj(out[key]);
    if (!agents) continue;
    out[key] = Object.fromEntries(
      Object.entries(agents).map(([name, a]) => [name, obj(a) && obj(a)!["permission"] !== undefined ? { ...obj(a), permission: normalisedPermission(obj(a)!["permission"]) } : a]),
    );
  }
  return out;
}

const normalisedPermission = (p: unknown): unknown => (typeof p === "string" ? { "*": p } : p);

/** `{env:NAME}` is replaced as OpenCode does; a `{file:…}` it would read in makes the file's rules uncertain. */
function substituted(text: string, env: RuleCtx["env"], where: string, unread: string[]): string {
  if (text.includes("{file:")) unread.push(`${where} reads another file in ({file:…})`);
  return text.replace(/\{env:([^}]+)\}/g, (_, name: string) => env[name] ?? "");
}

function parsed(text: string, unread: string[], where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    unread.push(`${where} is not valid JSON`);
    return null;
  }
}

/** A deep merge in OpenCode's way: objects merge key by key, anything else is replaced; keys keep their first place. */
function mergeDeep(into: Json, from: Json): Json {
  const out: Json = { ...into, ...from };
  for (const key of Object.keys(from)) {
    const a = obj(into[key]);
    const b = obj(from[key]);
    if (a && b && Object.hasOwn(into, key)) out[key] = mergeDeep(a, b);
  }
  return out;
}

/** The files named `targets` in `start` and each folder above it up to `stop` (the root when null), nearest first. */
function up(start: string, stop: string | null, targets: readonly string[]): string[] {
  const out: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    for (const t of targets) if (exists(join(dir, t))) out.push(join(dir, t));
    if (dir === stop || dirname(dir) === dir) return out;
  }
}

/** Whether OpenCode fetches settings of an organisation's (`opencode auth login <url>` keeps a well-known entry). */
function remoteConfig(env: RuleCtx["env"], userHome: string): boolean {
  try {
    const auth = obj(JSON.parse(readFileSync(join(env["XDG_DATA_HOME"] || join(userHome, ".local", "share"), "opencode", "auth.json"), "utf8")));
    return Object.values(auth ?? {}).some((e) => obj(e)?.["type"] === "wellknown");
  } catch {
    return false;
  }
}

function gitTop(cwd: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The agents a folder defines in Markdown (`agent/`, `agents/` at any depth; `mode/`, `modes/`), by name. */
function agentFiles(dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (sub: string, deep: boolean, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && deep) walk(join(sub, e.name), deep, `${prefix}${e.name}/`);
      else if (e.name.endsWith(".md")) out.push([prefix + e.name.slice(0, -3), join(dir, sub, e.name)]);
    }
  };
  for (const sub of ["agent", "agents"]) walk(sub, true, "");
  for (const sub of ["mode", "modes"]) walk(sub, false, "");
  return out;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
