// The `[hooks]` part of the effective config, as the rewrite needs it. A broken
// file never stops the rewrite: every problem is one warning on stderr, and the
// keys it concerns keep their defaults.
import type { Exclusion } from "../rewrite/mark.js";
import { configFromToml } from "./file.js";
import { issueWarning, loadConfig, warnConfigProblems, type EffectiveConfig } from "./load.js";
import type { Env } from "./paths.js";

export type { Env } from "./paths.js";
export { userConfigPath } from "./paths.js";

export interface HookConfig {
  exclusions: Exclusion[];
  transparentPrefixes: string[][];
}

export function loadHookConfig(env: Env, warn: (msg: string) => void, cwd: string = process.cwd()): HookConfig {
  return hookConfigOf(loadConfig(env, cwd), env, warn);
}

/** The `[hooks]` part of a config already loaded (its problems are warned about once). */
export function hookConfigOf(cfg: EffectiveConfig, env: Env, warn: (msg: string) => void): HookConfig {
  warnConfigProblems(cfg, warn, env);
  return hookConfig(cfg.hooks.exclude_commands, cfg.hooks.transparent_prefixes);
}

/** The `[hooks]` of one config file's text (problems are warnings). */
export function hookConfigFromToml(text: string, path: string, warn: (msg: string) => void): HookConfig {
  const file = configFromToml(text, path);
  for (const i of file.issues) warn(issueWarning(i));
  return hookConfig(file.values.hooks?.exclude_commands ?? [], file.values.hooks?.transparent_prefixes ?? []);
}

function hookConfig(excludeCommands: readonly string[], prefixes: readonly string[]): HookConfig {
  const exclusions: Exclusion[] = [];
  for (const entry of excludeCommands) {
    // The schema left out every `^` entry that does not compile.
    if (entry.startsWith("^")) exclusions.push({ regex: new RegExp(entry) });
    else {
      const words = entry.trim().split(/\s+/).filter(Boolean);
      if (words.length) exclusions.push({ words });
    }
  }
  const transparentPrefixes = prefixes.map((p) => p.trim().split(/\s+/).filter(Boolean)).filter((p) => p.length > 0);
  return { exclusions, transparentPrefixes };
}
