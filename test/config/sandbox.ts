// A fresh world for each config test: a temporary HOME with its own config and
// data folders and a project folder inside it, and the built `bin/rtk` run with
// an explicit environment (never the real HOME, no RTK_* from the parent).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after } from "node:test";
import { launchSync } from "../support/launch.js";
import { COMPACT_EVERY_OUTPUT } from "../support/sandbox.js";

export interface Sandbox {
  root: string;
  home: string;
  /** XDG_CONFIG_HOME */
  config: string;
  /** XDG_DATA_HOME */
  data: string;
  project: string;
  /** The user's config file. */
  userFile: string;
  /** The project's config file. */
  projectFile: string;
}

const made: string[] = [];
// Every sandbox of a test file goes when the file's tests are done.
after(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function sandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rtk-config-")));
  made.push(root);
  const home = join(root, "home");
  const s: Sandbox = {
    root,
    home,
    config: join(home, "xdg-config"),
    data: join(home, "xdg-data"),
    project: join(home, "code", "app"),
    userFile: join(home, "xdg-config", "rtk", "config.toml"),
    projectFile: join(home, "code", "app", ".rtk", "config.toml"),
  };
  mkdirSync(s.project, { recursive: true });
  return s;
}

export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export interface RunOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string>;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function rtk(s: Sandbox, args: readonly string[], o: RunOptions = {}): RunResult {
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: s.home,
    XDG_CONFIG_HOME: s.config,
    XDG_DATA_HOME: s.data,
    LC_ALL: "C",
    // Their outputs are short, which rtk prints as they are unless told to compact every one.
    ...COMPACT_EVERY_OUTPUT,
    ...o.env,
  };
  const r = launchSync(args, { cwd: o.cwd ?? s.project, env, input: o.input, timeout: 30_000 });
  assert.equal(r.error, undefined, String(r.error));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Lines of stderr that are rtk's own warnings. */
export function warnings(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.startsWith("rtk"));
}
