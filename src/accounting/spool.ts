// The run and hook paths' side of the accounting: one record appended as one
// JSON line to an owner-only spool file, with a single write on a descriptor
// opened with O_APPEND (the kernel appends each write whole, so concurrent rtk
// processes never interleave their lines). No database driver and no tokenizer
// here: the reports ingest the spool into the store (store.ts). Recording never
// changes what a command prints or how it exits: any failure drops the record.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { dataDir, type Env } from "../config/paths.js";
import type { HistoryRecord } from "./types.js";

export const SPOOL_NAME = "spool.jsonl";

export function spoolPath(env: Env): string {
  return join(dataDir(env), SPOOL_NAME);
}

/** RTK_NO_TRACK=1 (or the run's --no-track) turns recording off; `tracking.enabled = false` in the config too, checked by the caller that has the config. */
export function trackingOff(env: Env): boolean {
  return env["RTK_NO_TRACK"] === "1";
}

/** Appends the record; false when it could not be written (it is then dropped). */
export function appendRecord(record: HistoryRecord, env: Env): boolean {
  try {
    const line = Buffer.from(JSON.stringify(record) + "\n");
    const path = spoolPath(env);
    const dir = dirname(path);
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      makeDir(dir, 3);
      st = lstatSync(dir);
    }
    // As the recall store: nothing is written through a symlink, nor into a folder others can write to or own.
    if (!st.isDirectory() || (st.mode & 0o022) !== 0 || (typeof process.getuid === "function" && st.uid !== process.getuid())) return false;
    // No symlink as the spool itself; no waiting on a FIFO put in its place.
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
    try {
      if (!fstatSync(fd).isFile()) return false;
      return writeSync(fd, line) === line.length;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * Creates a folder and up to `depth` missing parents, owner-only. Not
 * `mkdirSync(…, { recursive: true })`: under /proc that loops for ever.
 */
function makeDir(dir: string, depth: number): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || depth <= 0 || dirname(dir) === dir) throw e;
    makeDir(dirname(dir), depth - 1);
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** The project a folder belongs to: its git top level (a `.git` folder or file above it), else the folder itself. */
export function projectOf(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ;) {
    // No throw when it is not there: a throw costs more than the look.
    if (statSync(join(dir, ".git"), { throwIfNoEntry: false })) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}
