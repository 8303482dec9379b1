// The `[hooks]` part of the user's config, as the rewrite needs it. A broken file
// never stops the rewrite: it is reported on stderr and defaults apply.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { Exclusion } from "../rewrite/mark.js";

export interface HookConfig {
  exclusions: Exclusion[];
  transparentPrefixes: string[][];
}

export const DEFAULT_HOOK_CONFIG: HookConfig = { exclusions: [], transparentPrefixes: [] };

export type Env = Readonly<Record<string, string | undefined>>;

export function userConfigPath(env: Env): string {
  if (env["RTK_CONFIG"]) return env["RTK_CONFIG"];
  const base = env["XDG_CONFIG_HOME"] || join(env["HOME"] || homedir(), ".config");
  return join(base, "rtk", "config.toml");
}

export function loadHookConfig(env: Env, warn: (msg: string) => void): HookConfig {
  const path = userConfigPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") warn(`rtk: cannot read ${path}: ${(e as Error).message}; using defaults`);
    return DEFAULT_HOOK_CONFIG;
  }
  return hookConfigFromToml(text, path, warn);
}

export function hookConfigFromToml(text: string, path: string, warn: (msg: string) => void): HookConfig {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    warn(`rtk: ${path}: ${(e as Error).message.split("\n")[0]}; using defaults`);
    return DEFAULT_HOOK_CONFIG;
  }
  const hooks = doc["hooks"];
  if (hooks === undefined) return DEFAULT_HOOK_CONFIG;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    warn(`rtk: ${path}: [hooks] must be a table; using defaults`);
    return DEFAULT_HOOK_CONFIG;
  }
  const h = hooks as Record<string, unknown>;
  for (const key of Object.keys(h)) {
    if (key !== "exclude_commands" && key !== "transparent_prefixes") warn(`rtk: ${path}: unknown key hooks.${key} ignored`);
  }
  const strings = (key: string): string[] => {
    const v = h[key];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
      warn(`rtk: ${path}: hooks.${key} must be a list of strings; ignored`);
      return [];
    }
    return v as string[];
  };
  const exclusions: Exclusion[] = [];
  for (const entry of strings("exclude_commands")) {
    if (entry.startsWith("^")) {
      try {
        exclusions.push({ regex: new RegExp(entry) });
      } catch {
        warn(`rtk: ${path}: hooks.exclude_commands: invalid regular expression ${JSON.stringify(entry)} ignored`);
      }
    } else {
      const words = entry.trim().split(/\s+/).filter(Boolean);
      if (words.length) exclusions.push({ words });
    }
  }
  const transparentPrefixes = strings("transparent_prefixes")
    .map((p) => p.trim().split(/\s+/).filter(Boolean))
    .filter((p) => p.length > 0);
  return { exclusions, transparentPrefixes };
}
