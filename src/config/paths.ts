// Where rtk's config files are: the user's file (RTK_CONFIG, else
// $XDG_CONFIG_HOME/rtk/config.toml, else ~/.config/rtk/config.toml) and the
// project's `.rtk/config.toml` (the nearest one from the working folder up,
// never above HOME).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

export const PROJECT_CONFIG = join(".rtk", "config.toml");

export function userConfigPath(env: Env): string {
  if (env["RTK_CONFIG"]) return resolve(env["RTK_CONFIG"]);
  const base = env["XDG_CONFIG_HOME"] || join(homeDir(env), ".config");
  return join(base, "rtk", "config.toml");
}

export function homeDir(env: Env): string {
  return resolve(env["HOME"] || homedir());
}

/**
 * The nearest `.rtk/config.toml` from `cwd` up. The walk stops at HOME when
 * `cwd` is inside it (HOME's own file included), else at the filesystem root.
 */
export function findProjectConfig(cwd: string, env: Env): string | null {
  const home = homeDir(env);
  const start = resolve(cwd);
  const insideHome = start === home || start.startsWith(home.endsWith(sep) ? home : home + sep);
  for (let dir = start; ;) {
    const candidate = join(dir, PROJECT_CONFIG);
    if (isFile(candidate)) return candidate;
    if (insideHome && dir === home) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** rtk's own data: the recall store, the trust store, the history. */
export function dataDir(env: Env): string {
  if (env["RTK_DATA_DIR"]) return env["RTK_DATA_DIR"];
  const base = env["XDG_DATA_HOME"] || join(env["HOME"] || homedir(), ".local", "share");
  return join(base, "rtk");
}

export function trustStorePath(env: Env): string {
  return join(dataDir(env), "trusted.json");
}

export function defaultDatabasePath(env: Env): string {
  return join(dataDir(env), "history.db");
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
