// The recall store: the raw output of runs whose compact form hid something, or
// that failed. Owner-only: the folder is 0700, each entry 0600 and created
// exclusively without following symlinks. The newest entries within the age
// limit are kept: a run that saves an entry sweeps the store when it holds a
// tenth more entries than the limit, or when the last sweep is an hour old, so
// that most runs pay one directory listing instead of reading every entry.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync, writeSync, chmodSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../config/hooks.js";

export interface RecallMeta {
  id: string;
  argv: string[];
  exitCode: number;
  route: string | null;
  /** Milliseconds since the epoch. */
  time: number;
  bytes: number;
  truncated: boolean;
}

export const MAX_RECALL_BYTES = 16 * 1024 * 1024;

export function dataDir(env: Env): string {
  if (env["RTK_DATA_DIR"]) return env["RTK_DATA_DIR"];
  const base = env["XDG_DATA_HOME"] || join(env["HOME"] || homedir(), ".local", "share");
  return join(base, "rtk");
}

export function recallDir(env: Env): string {
  return join(dataDir(env), "recall");
}

export class RecallUnsafeError extends Error {}

/** Creates the folder owner-only, refusing one that is a symlink or belongs to someone else. */
export function ensureRecallDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new RecallUnsafeError(`${dir} is not a plain folder; recall is off`);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new RecallUnsafeError(`${dir} belongs to another user; recall is off`);
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

const ID = /^[0-9a-f]{7}$/;

/** A fresh 7-hex id not used by a kept entry. */
export function newRecallId(dir: string): string {
  const taken = new Set(safeList(dir).map((f) => f.slice(0, 7)));
  for (;;) {
    const id = randomBytes(4).toString("hex").slice(0, 7);
    if (!taken.has(id)) return id;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Opens a new owner-only file exclusively; a pre-placed file or symlink makes it fail. */
export function createExclusive(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
}

/** Writes an entry: the raw text (written by `fill`) and its metadata. */
export function writeRecall(dir: string, meta: Omit<RecallMeta, "bytes" | "truncated">, fill: (write: (b: Buffer) => boolean) => void): RecallMeta {
  const fd = createExclusive(join(dir, `${meta.id}.txt`));
  let bytes = 0;
  let truncated = false;
  try {
    fill((b) => {
      if (bytes >= MAX_RECALL_BYTES) {
        truncated = true;
        return false;
      }
      const part = bytes + b.length > MAX_RECALL_BYTES ? b.subarray(0, MAX_RECALL_BYTES - bytes) : b;
      writeSync(fd, part);
      bytes += part.length;
      if (part.length < b.length) truncated = true;
      return !truncated;
    });
  } finally {
    closeSync(fd);
  }
  const full: RecallMeta = { ...meta, bytes, truncated };
  const mfd = createExclusive(join(dir, `${meta.id}.json`));
  try {
    writeSync(mfd, JSON.stringify(full));
  } finally {
    closeSync(mfd);
  }
  return full;
}

export function readRecallMeta(dir: string, id: string): RecallMeta | null {
  if (!ID.test(id)) return null;
  try {
    return JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8")) as RecallMeta;
  } catch {
    return null;
  }
}

/** The raw text of an entry, read without following a symlink. */
export function readRecallText(dir: string, id: string): Buffer | null {
  if (!ID.test(id)) return null;
  let fd: number;
  try {
    fd = openSync(join(dir, `${id}.txt`), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function listRecall(dir: string): RecallMeta[] {
  return safeList(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => readRecallMeta(dir, f.slice(0, 7)))
    .filter((m): m is RecallMeta => m !== null)
    .sort((a, b) => b.time - a.time);
}

/** How often the store is swept at the least, whatever it holds. */
export const SWEEP_EVERY_MS = 3600_000;
/** Beside the folder, when the store was last swept (its text: milliseconds since the epoch). */
const sweptPath = (dir: string) => dir.replace(/\/+$/, "") + ".swept";

/**
 * After a save: prunes the store (see pruneRecall) when it holds more than a
 * tenth (rounded down) over `maxEntries`, or when it was not swept within the
 * last hour.
 */
export function sweepRecall(dir: string, maxEntries = 200, maxAgeDays = 7, now = Date.now()): void {
  const entries = safeList(dir).filter((f) => f.endsWith(".json")).length;
  const last = lastSweep(dir);
  if (entries <= maxEntries + Math.floor(maxEntries / 10) && last !== null && last <= now && now - last < SWEEP_EVERY_MS) return;
  pruneRecall(dir, maxEntries, maxAgeDays, now);
  try {
    const path = sweptPath(dir);
    try {
      unlinkSync(path);
    } catch {
      // not there yet
    }
    const fd = createExclusive(path);
    try {
      writeSync(fd, String(now));
    } finally {
      closeSync(fd);
    }
  } catch {
    // The next save sweeps again.
  }
}

function lastSweep(dir: string): number | null {
  try {
    const fd = openSync(sweptPath(dir), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const b = Buffer.alloc(32);
      const t = Number(b.toString("utf8", 0, readSync(fd, b, 0, b.length, 0)));
      return Number.isFinite(t) && t > 0 ? t : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Keeps the newest `maxEntries` within `maxAgeDays`. */
export function pruneRecall(dir: string, maxEntries = 200, maxAgeDays = 7, now = Date.now()): void {
  const entries = listRecall(dir);
  const oldest = now - maxAgeDays * 24 * 3600 * 1000;
  entries.forEach((m, i) => {
    if (i < maxEntries && m.time >= oldest) return;
    for (const ext of [".txt", ".json"]) {
      try {
        unlinkSync(join(dir, m.id + ext));
      } catch {
        // already gone
      }
    }
  });
  // Stray data files without metadata (an interrupted write) older than the limit.
  for (const f of safeList(dir)) {
    if (!f.endsWith(".txt")) continue;
    try {
      if (statSync(join(dir, f)).mtimeMs < oldest) unlinkSync(join(dir, f));
    } catch {
      // ignore
    }
  }
}
