// The pieces host files build their install targets from: the folders a host's
// settings live in, and the rules block of rules-only hosts.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { NO_RULES, projectRoot } from "../permissions/sources.js";
import { rulesBlock } from "./awareness.js";
import type { BlockTarget, Host, HostInstall, Where } from "./types.js";

export const home = (w: Where) => w.env["HOME"] || homedir();
export const configHome = (w: Where) => w.env["XDG_CONFIG_HOME"] || join(home(w), ".config");
/** The project folder: the nearest one below HOME with the host's folder, else the git top level, else cwd. */
export const project = (w: Where, folder: string) => projectRoot(w.cwd, folder, home(w)) ?? w.cwd;

export const commandHook = (command: string, timeout?: number) => ({ type: "command", command, ...(timeout !== undefined ? { timeout } : {}) });

/**
 * A settings file in the host's dot folder, in the home (global; `moved` names
 * the variable that moves that folder) or in the project.
 */
export function dotFolder(folder: string, file: readonly string[], moved?: string): HostInstall["scopes"] {
  return {
    global: (w) => join((moved && w.env[moved]) || join(home(w), folder), ...file),
    project: (w) => join(project(w, folder), folder, ...file),
  };
}

/** The rules block of rules-only hosts, generated from the active routes when it is written. */
export const RULES_TARGET: BlockTarget = { kind: "block", content: rulesBlock };

export interface RulesHostRow {
  name: string;
  title: string;
  aliases?: readonly string[];
}

/** A host with no hook: rtk's rules block where its `scopes` say. */
export function rulesHost(h: RulesHostRow, scopes: HostInstall["scopes"], defaultScope: HostInstall["defaultScope"]): Host {
  return {
    name: h.name,
    title: h.title,
    tier: "rules-only",
    ...(h.aliases ? { aliases: h.aliases } : {}),
    rules: NO_RULES,
    install: { target: RULES_TARGET, scopes, defaultScope },
  };
}

/** A host with no hook: rtk's rules block in an instructions file of the project (`file`, from the project folder). */
export function rulesOnlyHost(h: RulesHostRow & { file: (root: string) => string }): Host {
  return rulesHost(h, { project: (w) => h.file(project(w, ".git")) }, "project");
}

/** A host with no hook that reads every file of the `rules` folder in its dot folder: rtk's own `rtk.md` there, in the project unless asked. */
export function rulesFolderHost(h: RulesHostRow & { folder: string }): Host {
  return rulesHost(h, dotFolder(h.folder, ["rules", "rtk.md"]), "project");
}

/** A rules file that may also be a folder of rule files (`.clinerules/`): then rtk's own file inside it. */
export function rulesFileOrFolder(path: string, inside: string): string {
  try {
    if (statSync(path).isDirectory()) return join(path, inside);
  } catch {
    // not there yet: a file
  }
  return path;
}
