// The shell a host runs an agent's command in, and whether the `rtk` a rewrite
// inserts runs there. Claude Code runs commands with the PATH it was started
// with (its hook's). Codex runs them in the user's login shell as it snapshots
// it at a session's start: `bash -l` (zsh, sh) with ~/.bashrc (~/.zshrc, $ENV)
// sourced on top; /etc/profile resets PATH on many systems, so a folder that
// only an interactive shell puts on PATH (nvm, fnm, volta, a user npm prefix)
// is not there. That PATH is learnt by running the shell, once per change of
// what decides it: the answer is cached by the identity (path, size, mtime) of
// the startup files, the shell, HOME and the environment's PATH.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Env } from "../config/hooks.js";
import { makeDirs } from "../fs/make-dirs.js";
import { executable, findOnPath, isRtkLauncher, ON_PATH_FIX, rtkReach, selfLauncher, type Reach } from "./on-path.js";

/**
 * `inherited`: with the environment the host gives its hook. `login`: the
 * user's login shell with its interactive rc file sourced (Codex).
 */
export type CommandShell = "inherited" | "login";

type Family = "bash" | "zsh" | "sh";

interface LoginShell {
  file: string;
  family: Family;
}

/** The user's shell as Codex picks it: the account's shell when it is bash, zsh or sh, else bash. */
export function loginShell(env: Env): LoginShell {
  let shell: string | undefined;
  try {
    shell = userInfo().shell ?? undefined;
  } catch {
    shell = undefined;
  }
  shell ||= env["SHELL"];
  const name = shell ? basename(shell) : "";
  if (shell && name === "zsh") return { file: shell, family: "zsh" };
  if (shell && (name === "sh" || name === "dash")) return { file: shell, family: "sh" };
  if (shell && name === "bash") return { file: shell, family: "bash" };
  for (const bash of ["/bin/bash", "/usr/bin/bash"]) if (executable(bash)) return { file: bash, family: "bash" };
  return { file: "/bin/sh", family: "sh" };
}

/** What the shell sources on top of a login start before the command, as Codex's snapshot does. */
function rcSource(family: Family): string {
  switch (family) {
    case "bash":
      return 'if [ -z "$BASH_ENV" ] && [ -r "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi';
    case "zsh":
      return 'if [ -n "$ZDOTDIR" ]; then rc="$ZDOTDIR/.zshrc"; else rc="$HOME/.zshrc"; fi; [ -r "$rc" ] && . "$rc"';
    case "sh":
      return 'if [ -n "$ENV" ] && [ -r "$ENV" ]; then . "$ENV"; fi';
  }
}

/** The arguments that run `script` in the user's login shell, after its startup files. */
export function loginShellCommand(env: Env, script: string): { file: string; args: string[] } {
  const shell = loginShell(env);
  return { file: shell.file, args: ["-lc", `${rcSource(shell.family)}\n${script}`] };
}

/** The files whose content decides the login shell's PATH, for the family. */
function startupFiles(family: Family, env: Env): string[] {
  const home = env["HOME"] || "";
  const files = ["/etc/profile", "/etc/profile.d"];
  if (family === "bash") files.push("/etc/bash.bashrc", "/etc/bashrc", ...[".bash_profile", ".bash_login", ".profile", ".bashrc"].map((f) => join(home, f)));
  if (family === "sh") files.push(join(home, ".profile"));
  if (family === "zsh") {
    const z = env["ZDOTDIR"] || home;
    for (const d of ["/etc", "/etc/zsh"]) for (const f of ["zshenv", "zprofile", "zshrc", "zlogin"]) files.push(join(d, f));
    for (const f of [".zshenv", ".zprofile", ".zshrc", ".zlogin"]) files.push(join(z, f));
  }
  for (const v of ["BASH_ENV", "ENV"]) if (env[v]) files.push(resolve(home || "/", env[v]!));
  return files;
}

function identity(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${path}:${st.size}:${st.mtimeMs}:${st.ino}` : `${path}:-`;
}

/** Everything the login shell's PATH depends on, as one key. */
function loginKey(shell: LoginShell, env: Env): string {
  const parts = [identity(shell.file), `HOME=${env["HOME"] ?? ""}`, `PATH=${env["PATH"] ?? ""}`, `ZDOTDIR=${env["ZDOTDIR"] ?? ""}`, `BASH_ENV=${env["BASH_ENV"] ?? ""}`, `ENV=${env["ENV"] ?? ""}`];
  for (const f of startupFiles(shell.family, env)) parts.push(identity(f));
  return createHash("sha256").update(parts.join("\n")).digest("base64url");
}

const MARK = "rtk-login-path:";
const PROBE_TIMEOUT_MS = 5000;

/** Runs the login shell once and reads its PATH; null with the reason when it cannot be run or says nothing. */
export function probeLoginPath(env: Env, cwd: string): { path: string } | { error: string } {
  const { file, args } = loginShellCommand(env, `printf '\\n${MARK}%s\\n' "$PATH"`);
  const r = spawnSync(file, args, { cwd, env: env as NodeJS.ProcessEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL" });
  if (r.error) return { error: `${file} could not be run (${r.error.message})` };
  const line = (r.stdout ?? "")
    .split("\n")
    .reverse()
    .find((l) => l.startsWith(MARK));
  if (line === undefined) return { error: `${file} -l did not finish (exit ${r.status ?? "none"})` };
  return { path: line.slice(MARK.length) };
}

interface CacheEntry {
  key: string;
  path?: string;
  error?: string;
}

const MAX_ENTRIES = 8;

function cacheFile(env: Env): string {
  const base = env["XDG_CACHE_HOME"] || join(env["HOME"] || "/", ".cache");
  return join(base, "rtk", "login-path.json");
}

function readCache(file: string): CacheEntry[] {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { entries?: unknown };
    return Array.isArray(doc.entries) ? (doc.entries as CacheEntry[]).filter((e) => e && typeof e.key === "string") : [];
  } catch {
    return [];
  }
}

/** Whether the cache file can be written: a shell is run on the hot path only where its answer is kept. */
function writableCache(file: string): boolean {
  try {
    makeDirs(dirname(file), 0o700);
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function writeCache(file: string, entries: CacheEntry[]): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ entries: entries.slice(0, MAX_ENTRIES) }), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // Not kept: the next call asks the shell again.
  }
}

/**
 * The PATH of the user's login shell, from the cache when nothing that decides
 * it has changed, else by running the shell once (and caching the answer). A
 * cache folder that cannot be written means no shell is run: unknown. `fresh`
 * (init, doctor) runs the shell and neither reads nor writes the cache.
 */
export function loginPath(env: Env, cwd: string, opts: { fresh?: boolean } = {}): { path: string } | { error: string } {
  if (opts.fresh) return probeLoginPath(env, cwd);
  const shell = loginShell(env);
  const key = loginKey(shell, env);
  const file = cacheFile(env);
  const entries = readCache(file);
  const hit = entries.find((e) => e.key === key);
  if (hit) return hit.path !== undefined ? { path: hit.path } : { error: hit.error ?? "unknown" };
  if (!writableCache(file)) return { error: `rtk's cache folder ${dirname(file)} cannot be written, so the login shell is not run to read its PATH` };
  const got = probeLoginPath(env, cwd);
  const entry: CacheEntry = "path" in got ? { key, path: got.path } : { key, error: got.error };
  writeCache(file, [entry, ...entries.filter((e) => e.key !== key)]);
  return got;
}

/** The file name of the Node binary the launcher looks for on PATH (the runtime's own name). */
const NODE_FILE = process.release.name;

/** The Node binary rtk's launcher at `launcher` would start with `pathVar`: its build's recorded one, else the first `node` on PATH (absolute entries). */
export function launcherNode(launcher: string, pathVar: string): string | null {
  try {
    const recorded = readFileSync(join(dirname(launcher), "..", "dist", "rtk.blob.node"), "utf8").split("\n")[0]!;
    if (recorded && statSync(recorded).isFile() && executable(recorded)) return recorded;
  } catch {
    // an installed rtk: no recorded Node
  }
  const absolute = pathVar
    .split(":")
    .filter((p) => isAbsolute(p))
    .join(":");
  return findOnPath(NODE_FILE, absolute, "/");
}

/** Whether the `rtk` a rewrite inserts runs in the user's login shell: found on its PATH, an rtk, and able to start Node there. */
export function loginReach(env: Env, cwd: string, opts: { fresh?: boolean } = {}): Reach {
  const got = loginPath(env, cwd, opts);
  if ("error" in got) return { ok: false, why: `the PATH of your login shell is not known: ${got.error}` };
  const found = findOnPath("rtk", got.path, cwd);
  if (!found) return { ok: false, why: `\`rtk\` is not on the PATH of your login shell (${loginShell(env).file} -l: ${got.path || "empty"})` };
  if (!isRtkLauncher(found, env)) return { ok: false, why: `\`rtk\` on the PATH of your login shell is ${found}, which is not an rtk launcher` };
  if (!launcherNode(found, got.path)) return { ok: false, why: `your login shell finds rtk at ${found} but no \`node\` on its PATH (${got.path || "empty"}): rtk could not start there` };
  return { ok: true, path: found };
}

/** A folder on the login shell's PATH the user can write to, where `rtk init --link` would put rtk within its reach (a `bin` folder first). */
export function writableLoginDir(pathVar: string): string | null {
  const dirs = pathVar.split(":").filter((dir) => {
    if (!isAbsolute(dir)) return false;
    try {
      if (!statSync(dir).isDirectory()) return false;
      accessSync(dir, constants.W_OK);
      return true;
    } catch {
      // not there, or not ours to write
      return false;
    }
  });
  return dirs.find((d) => basename(d) === "bin") ?? dirs[0] ?? null;
}

/**
 * What to do when the login shell does not reach rtk, in one line: link rtk
 * into a folder of its PATH the user can write (where Node is on it too), else
 * put the folders of rtk (and of Node) on PATH in the profile it reads.
 */
export function loginFix(env: Env, cwd: string, opts: { fresh?: boolean } = {}): string {
  const got = loginPath(env, cwd, opts);
  const path = "path" in got ? got.path : "";
  const self = selfLauncher(env);
  const dir = path ? writableLoginDir(path) : null;
  if (dir && self && launcherNode(self, path)) return `rtk init --link ${dir}`;
  const onPath = findOnPath("rtk", env["PATH"], cwd);
  const rtkDir = onPath && isRtkLauncher(onPath, env) ? dirname(onPath) : self ? dirname(self) : null;
  const node = self ? launcherNode(self, env["PATH"] ?? "") : null;
  const dirs = [rtkDir, node && !launcherNode(self!, path) ? dirname(node) : null].filter((d, i, all): d is string => d !== null && all.indexOf(d) === i);
  const home = env["HOME"];
  const shown = dirs.map((d) => (home && d.startsWith(home + "/") ? "$HOME" + d.slice(home.length) : d));
  const profile = loginShell(env).family === "zsh" ? "~/.zprofile" : "~/.profile (~/.bash_profile where there is one: bash reads only the first)";
  return `add  export PATH="${[...shown, "$PATH"].join(":")}"  to ${profile}, which a login shell reads`;
}

/** Where the rewritten command runs: does its `rtk` run there? */
export function reachIn(shell: CommandShell, env: Env, cwd: string, opts: { fresh?: boolean } = {}): Reach {
  return shell === "login" ? loginReach(env, cwd, opts) : rtkReach(env, cwd);
}

/** What to do when it does not, in one line. */
export function reachFix(shell: CommandShell, env: Env, cwd: string, opts: { fresh?: boolean } = {}): string {
  return shell === "login" ? loginFix(env, cwd, opts) : ON_PATH_FIX;
}

/** reachIn, unless RTK_NO_PATH_CHECK=1 turns the check off (a host that runs commands with a PATH of its own). */
export function rewriteRunnable(env: Env, cwd: string, shell: CommandShell = "inherited"): Reach {
  if (env["RTK_NO_PATH_CHECK"] === "1") return { ok: true, path: "rtk" };
  return reachIn(shell, env, cwd);
}
