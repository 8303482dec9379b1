// A throw-away world for a test that spawns rtk: its own HOME, data, config,
// temp and working folders, and an env naming them (never the machine's HOME).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The tests judge what the filters make of an output, however short: every
 * output is compacted (rtk's default prints a short one as it is; the tests of
 * that default set the size themselves).
 */
export const COMPACT_EVERY_OUTPUT = { RTK_PASSTHROUGH_TOKENS: "0" } as const;

export interface Sandbox {
  root: string;
  home: string;
  cwd: string;
  data: string;
  config: string;
  tmp: string;
  /** `$XDG_DATA_HOME/rtk/recall` */
  recall: string;
  env: Record<string, string>;
}

const made: string[] = [];

export function sandbox(prefix: string, extraEnv: Record<string, string> = {}): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  made.push(root);
  const dirs = { home: join(root, "home"), data: join(root, "data"), config: join(root, "config"), tmp: join(root, "tmp"), cwd: join(root, "cwd") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: dirs.home,
    XDG_DATA_HOME: dirs.data,
    XDG_CONFIG_HOME: dirs.config,
    TMPDIR: dirs.tmp,
    LC_ALL: "C",
    GIT_CEILING_DIRECTORIES: root,
    GIT_CONFIG_NOSYSTEM: "1",
    ...COMPACT_EVERY_OUTPUT,
    ...extraEnv,
  };
  return { root, ...dirs, recall: join(dirs.data, "rtk", "recall"), env };
}

/** Removes every sandbox made so far (for an `after` hook). */
export function removeSandboxes(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
