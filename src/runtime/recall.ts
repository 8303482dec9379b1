// The recall store: the raw output of runs whose compact form hid something, or
// that failed. Owner-only: the folder is 0700, each entry 0600 and created
// exclusively without following symlinks. The newest entries within the age
// limit are kept: a run that saves an entry sweeps the store when it holds a
// tenth more entries than the limit, or when the last sweep is an hour old, so
// that most runs pay one directory listing instead of reading every entry.
//
// The store is used only when both its folders (`rtk` and `rtk/recall`) are
// plain folders of the user's that no one else may write to. Node has no
// openat(): each folder is opened without following a symlink and checked
// through its descriptor, and on Linux what is inside is reached through
// /proc/self/fd/<n>, so a folder swapped for a symlink after the check is never
// followed; elsewhere each new entry is checked after its creation.
//
// An entry is reserved when a run first asks for its id (its two files created
// empty), so a handle is printed only for an entry that exists; the run fills
// it at its end, or removes it when it kept nothing.
//
// The same raw output of the same command (argv, working folder, exit code and
// bytes) is kept once. A run whose output is whole before it names an entry
// names the identical one already kept (the same id). One that printed its id
// before its output was whole keeps its text, and each older identical entry
// becomes an alias of it (its metadata names the new id, its text is removed):
// every handle ever printed still gives the same bytes, and the store holds one copy.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { Env } from "../config/hooks.js";
import { dataDir } from "../config/paths.js";
import { makeDirs } from "../fs/make-dirs.js";

export interface RecallMeta {
  id: string;
  argv: string[];
  exitCode: number;
  route: string | null;
  /** Milliseconds since the epoch. */
  time: number;
  bytes: number;
  truncated: boolean;
  /** The working folder of the run (absent in entries of older versions). */
  cwd?: string;
  /** SHA-256 of the kept bytes. */
  sha256?: string;
  /** Set on an older identical entry: its text is that entry's. */
  aliasOf?: string;
}

export const MAX_RECALL_BYTES = 16 * 1024 * 1024;

export function recallDir(env: Env): string {
  return join(dataDir(env), "recall");
}

export class RecallUnsafeError extends Error {}

/** An opened, checked recall folder. */
export interface RecallStore {
  /** The path its entries are reached by (through its descriptor where the system allows). */
  dir: string;
  /** The path of the record of the last sweep, beside the folder. */
  swept: string;
  /** Throws RecallUnsafeError when a folder was swapped since it was opened (where paths do not go through descriptors). */
  verify(): void;
  close(): void;
}

export interface OpenOptions {
  /** Create the folders when missing (default); otherwise a missing store is ENOENT. */
  create?: boolean;
  /** Reach entries through /proc/self/fd when it works (default); false checks each entry after its creation. */
  viaDescriptor?: boolean;
}

/**
 * Opens the recall folder `dir` and its parent (rtk's data folder), refusing
 * either when it is a symlink, not a folder, someone else's, or writable by
 * group or others. A recall folder readable by others is made 0700.
 */
export function openRecallDir(dir: string, opts: OpenOptions = {}): RecallStore {
  const create = opts.create ?? true;
  const via = opts.viaDescriptor ?? true;
  const parent = dirname(dir);
  // The folders above rtk's own are the user's setup, not rtk's to judge.
  if (create) {
    makeDirs(dirname(parent), 0o700);
    makeFolder(parent);
  }
  const fds: number[] = [];
  const close = () => fds.splice(0).forEach((fd) => closeSync(fd));
  try {
    fds.push(openFolder(parent));
    const parentStat = checkFolder(fds[0]!, parent);
    const parentVia = via ? descriptorPath(fds[0]!, parentStat) : null;
    const path = join(parentVia ?? parent, basename(dir));
    if (create) makeFolder(path);
    fds.push(openFolder(path, dir));
    const stat = checkFolder(fds[1]!, dir);
    if ((stat.mode & 0o077) !== 0) fchmodSync(fds[1]!, 0o700);
    const dirVia = parentVia === null ? null : descriptorPath(fds[1]!, stat);
    return {
      dir: dirVia ?? dir,
      swept: join(parentVia ?? parent, basename(dir) + ".swept"),
      verify() {
        if (dirVia !== null) return;
        // Without descriptor paths, a swap after the check shows as another folder at the same path.
        const same = (p: string, s: Stats) => {
          const now = lstatSync(p);
          return !now.isSymbolicLink() && now.dev === s.dev && now.ino === s.ino;
        };
        if (!same(parent, parentStat) || !same(dir, stat)) throw new RecallUnsafeError(`${dir} changed while in use; recall is off`);
      },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
}

function makeFolder(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}

/** Opens a folder without following a symlink at its last component. */
function openFolder(path: string, shown = path): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "EMLINK") throw new RecallUnsafeError(`${shown} is not a plain folder; recall is off`);
    throw e;
  }
}

function checkFolder(fd: number, path: string): Stats {
  const st = fstatSync(fd);
  if (!st.isDirectory()) throw new RecallUnsafeError(`${path} is not a plain folder; recall is off`);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new RecallUnsafeError(`${path} belongs to another user; recall is off`);
  if ((st.mode & 0o022) !== 0) throw new RecallUnsafeError(`${path} is writable by others; recall is off`);
  return st;
}

/** /proc/self/fd/<fd> when it reaches the opened folder itself (Linux), else null. */
function descriptorPath(fd: number, st: Stats): string | null {
  const path = `/proc/self/fd/${fd}`;
  try {
    const via = statSync(path);
    return via.dev === st.dev && via.ino === st.ino ? path : null;
  } catch {
    return null;
  }
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

/** An entry's two files, created empty and still open. */
export interface RecallSlot {
  id: string;
  text: number;
  meta: number;
}

/** Creates the files of entry `id` exclusively (throws EEXIST when either path is taken, a symlink too). */
export function reserveEntry(dir: string, id: string): RecallSlot {
  const text = createExclusive(join(dir, `${id}.txt`));
  try {
    return { id, text, meta: createExclusive(join(dir, `${id}.json`)) };
  } catch (e) {
    closeSync(text);
    removeQuietly(join(dir, `${id}.txt`));
    throw e;
  }
}

/** How many fresh ids a reservation tries when the chosen one is taken meanwhile. */
const RESERVE_TRIES = 8;

/** Reserves an entry under a fresh id; null when none could be made. */
export function reserveRecall(store: RecallStore): RecallSlot | null {
  for (let i = 0; i < RESERVE_TRIES; i++) {
    const id = newRecallId(store.dir);
    let slot: RecallSlot;
    try {
      slot = reserveEntry(store.dir, id);
    } catch (e) {
      // Taken since the listing (another run, a planted path): another id.
      if ((e as NodeJS.ErrnoException).code === "EEXIST") continue;
      return null;
    }
    try {
      store.verify();
      return slot;
    } catch {
      closeSync(slot.text);
      closeSync(slot.meta);
      return null;
    }
  }
  return null;
}

/** Removes a reserved entry that was not filled. */
export function releaseRecall(dir: string, slot: RecallSlot): void {
  closeSync(slot.text);
  closeSync(slot.meta);
  removeQuietly(join(dir, `${slot.id}.txt`));
  removeQuietly(join(dir, `${slot.id}.json`));
}

/** Fills a reserved entry: the raw text (written by `fill`, up to MAX_RECALL_BYTES) and its metadata; closes its files. */
export function fillRecall(slot: RecallSlot, meta: Omit<RecallMeta, "id" | "bytes" | "truncated" | "sha256" | "aliasOf">, fill: (write: (b: Buffer) => boolean) => void): RecallMeta {
  let bytes = 0;
  let truncated = false;
  const hash = createHash("sha256");
  try {
    fill((b) => {
      if (bytes >= MAX_RECALL_BYTES) {
        truncated = true;
        return false;
      }
      const part = bytes + b.length > MAX_RECALL_BYTES ? b.subarray(0, MAX_RECALL_BYTES - bytes) : b;
      writeSync(slot.text, part);
      hash.update(part);
      bytes += part.length;
      if (part.length < b.length) truncated = true;
      return !truncated;
    });
  } finally {
    closeSync(slot.text);
  }
  const full: RecallMeta = { id: slot.id, ...meta, bytes, truncated, sha256: hash.digest("hex") };
  try {
    writeSync(slot.meta, JSON.stringify(full));
  } finally {
    closeSync(slot.meta);
  }
  return full;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

export interface RecallSettings {
  enabled: boolean;
  maxEntries: number;
  maxAgeDays: number;
}

/**
 * The recall session of one run. `id()` reserves its entry the first time (or
 * says "unavailable": recall off, the store refused, or `allowed` false for
 * output that must never be kept), lazily: a run that hides nothing makes
 * none; `complete` says the output is whole (a rerun's identical entry may
 * then be named instead); `save` fills the entry, reserving one if none was
 * asked for, and sweeps the store; `keep` saves when the run's end calls for
 * it; `close` removes a reserved entry that was not filled.
 */
export class RunRecall {
  private store: RecallStore | null = null;
  private slot: RecallSlot | null = null;
  private asked: string | null = null;
  /** The run's whole output, once it is known before an id is asked for: an identical entry is then reused. */
  private finished: { argv: readonly string[]; exitCode: number; chunks: () => Iterable<Buffer> } | null = null;
  /** The id handed out is an existing entry's: nothing is saved. */
  private reused = false;

  constructor(
    private readonly env: Env,
    private readonly settings: RecallSettings | undefined,
    private readonly allowed: boolean,
  ) {}

  /** Says the output is whole (the child ended): an id asked for from now on may be an identical earlier entry's. */
  complete(argv: readonly string[], exitCode: number, chunks: () => Iterable<Buffer>): void {
    this.finished = { argv, exitCode, chunks };
  }

  id(): string {
    if (this.asked !== null) return this.asked;
    this.asked = "unavailable";
    if (!this.allowed || this.settings?.enabled === false) return this.asked;
    try {
      this.store = openRecallDir(recallDir(this.env));
      const same = this.finished && sameEntry(this.store.dir, this.finished.argv, this.finished.exitCode, this.finished.chunks());
      if (same) {
        this.reused = true;
        this.asked = same;
        return same;
      }
      this.slot = reserveRecall(this.store);
      if (this.slot) this.asked = this.slot.id;
    } catch {
      // The store stays unused; the command's output and exit code do not change.
    }
    return this.asked;
  }

  /** The id a marker of the output named, if any (null when none was asked for, or the store could not keep it). */
  get handedOut(): string | null {
    return this.asked === "unavailable" ? null : this.asked;
  }

  /** The id of the entry reserved and not saved yet, if any. */
  get reserved(): string | null {
    return this.slot?.id ?? null;
  }

  save(meta: Omit<RecallMeta, "id" | "bytes" | "truncated" | "cwd" | "sha256" | "aliasOf">, fill: (write: (b: Buffer) => boolean) => void): void {
    this.id();
    if (this.reused) return;
    const slot = this.slot;
    if (!slot || !this.store) return;
    this.slot = null;
    try {
      const saved = fillRecall(slot, { ...meta, cwd: process.cwd() }, fill);
      dedupRecall(this.store.dir, saved);
      sweepRecall(this.store.dir, this.settings?.maxEntries, this.settings?.maxAgeDays, Date.now(), this.store.swept);
    } catch {
      // The recall store never changes the command's output or exit code.
    }
  }

  /**
   * The run's end: its raw output is kept when a handle to it was printed, or
   * when `wanted` (a failed run's output is what the agent will look for).
   */
  keep(meta: Omit<RecallMeta, "id" | "bytes" | "truncated" | "cwd" | "sha256" | "aliasOf">, chunks: () => Iterable<Buffer>, wanted = false): void {
    if (!this.allowed || (this.reserved === null && !wanted)) return;
    this.save(meta, (write) => {
      for (const b of chunks()) if (!write(b)) break;
    });
  }

  close(): void {
    try {
      if (this.slot && this.store) releaseRecall(this.store.dir, this.slot);
    } catch {
      // nothing more to undo
    }
    this.slot = null;
    this.store?.close();
    this.store = null;
  }
}

export function readRecallMeta(dir: string, id: string): RecallMeta | null {
  if (!ID.test(id)) return null;
  try {
    return JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8")) as RecallMeta;
  } catch {
    return null;
  }
}

/**
 * An entry holding exactly these bytes for the same command (argv, working
 * folder, exit code), or null: a rerun's handle is the entry already kept.
 */
function sameEntry(dir: string, argv: readonly string[], exitCode: number, chunks: Iterable<Buffer>): string | null {
  const hash = createHash("sha256");
  let bytes = 0;
  for (const b of chunks) {
    const part = bytes + b.length > MAX_RECALL_BYTES ? b.subarray(0, MAX_RECALL_BYTES - bytes) : b;
    hash.update(part);
    bytes += part.length;
    if (bytes >= MAX_RECALL_BYTES) return null;
  }
  const sha = hash.digest("hex");
  const cwd = process.cwd();
  const key = JSON.stringify(argv);
  const found = listRecall(dir).find((m) => m.sha256 === sha && m.bytes === bytes && !m.truncated && m.exitCode === exitCode && m.cwd === cwd && JSON.stringify(m.argv) === key);
  // Its text is there, whole (a look at its size: the bytes were hashed when it was kept).
  return found && textSize(dir, found.id) === bytes ? found.id : null;
}

function textSize(dir: string, id: string): number | null {
  try {
    const st = lstatSync(join(dir, `${id}.txt`));
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** How many aliases a read follows (a chain forms only when identical runs end at the same time). */
const MAX_ALIAS_HOPS = 4;

/** The raw text of an entry (an alias's is its target's, when the target still holds the same bytes), read without following a symlink. */
export function readRecallText(dir: string, id: string): Buffer | null {
  let meta = readRecallMeta(dir, id);
  for (let hop = 0; meta?.aliasOf !== undefined; hop++) {
    const target = hop < MAX_ALIAS_HOPS ? readRecallMeta(dir, meta.aliasOf) : null;
    if (target === null || target.sha256 !== meta.sha256) return null;
    id = target.id;
    meta = target;
  }
  return readEntryFile(dir, id);
}

function readEntryFile(dir: string, id: string): Buffer | null {
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

/** The entries that hold their text, newest first (aliases are not listed: their target is). */
export function listRecall(dir: string): RecallMeta[] {
  return listAll(dir).filter((m) => m.aliasOf === undefined);
}

function listAll(dir: string): RecallMeta[] {
  return safeList(dir)
    .filter((f) => /^[0-9a-f]{7}\.json$/.test(f))
    .map((f) => readRecallMeta(dir, f.slice(0, 7)))
    .filter((m): m is RecallMeta => m !== null)
    .sort((a, b) => b.time - a.time);
}

/** Whether two entries kept the same bytes of the same command, run in the same folder with the same result. */
function sameRun(a: RecallMeta, b: RecallMeta): boolean {
  return (
    a.sha256 !== undefined &&
    a.sha256 === b.sha256 &&
    a.bytes === b.bytes &&
    a.truncated === b.truncated &&
    a.exitCode === b.exitCode &&
    a.cwd !== undefined &&
    a.cwd === b.cwd &&
    a.argv.length === b.argv.length &&
    a.argv.every((w, i) => w === b.argv[i])
  );
}

/**
 * After `fresh` is filled: every other entry of the same run (see sameRun),
 * aliases included, becomes an alias of `fresh` and gives up its text. The
 * metadata is replaced whole by a rename (a reader sees the old or the new),
 * then the text is removed; either way a read gives the same bytes.
 */
export function dedupRecall(dir: string, fresh: RecallMeta): void {
  for (const m of listAll(dir)) {
    if (m.id === fresh.id || !sameRun(m, fresh)) continue;
    const tmp = join(dir, `${m.id}.json.tmp`);
    try {
      const fd = createExclusive(tmp);
      try {
        writeSync(fd, JSON.stringify({ ...m, aliasOf: fresh.id }));
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, join(dir, `${m.id}.json`));
    } catch {
      // Another run is rewriting it: it stays a copy.
      continue;
    }
    removeQuietly(join(dir, `${m.id}.txt`));
  }
}

/** How often the store is swept at the least, whatever it holds. */
export const SWEEP_EVERY_MS = 3600_000;

/**
 * After a save: prunes the store (see pruneRecall) when it holds more than a
 * tenth (rounded down) over `maxEntries`, or when it was not swept within the
 * last hour. `record`, beside the folder, holds when the store was last swept
 * (milliseconds since the epoch).
 */
export function sweepRecall(dir: string, maxEntries = 200, maxAgeDays = 7, now = Date.now(), record = dir.replace(/\/+$/, "") + ".swept"): void {
  const entries = safeList(dir).filter((f) => f.endsWith(".json")).length;
  const last = lastSweep(record);
  if (entries <= maxEntries + Math.floor(maxEntries / 10) && last !== null && last <= now && now - last < SWEEP_EVERY_MS) return;
  pruneRecall(dir, maxEntries, maxAgeDays, now);
  try {
    removeQuietly(record);
    const fd = createExclusive(record);
    try {
      writeSync(fd, String(now));
    } finally {
      closeSync(fd);
    }
  } catch {
    // The next save sweeps again.
  }
}

function lastSweep(record: string): number | null {
  try {
    const fd = openSync(record, constants.O_RDONLY | constants.O_NOFOLLOW);
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

/** Keeps the newest `maxEntries` within `maxAgeDays` (aliases count as entries, and go with the entry they name). */
export function pruneRecall(dir: string, maxEntries = 200, maxAgeDays = 7, now = Date.now()): void {
  const all = listAll(dir);
  const oldest = now - maxAgeDays * 24 * 3600 * 1000;
  const kept = new Set<string>();
  const drop = (m: RecallMeta) => {
    for (const ext of [".txt", ".json"]) {
      try {
        unlinkSync(join(dir, m.id + ext));
      } catch {
        // already gone
      }
    }
  };
  // Newest first, so an alias's target (always newer) is decided before it.
  all.forEach((m, i) => {
    const fresh = i < maxEntries && m.time >= oldest;
    if (fresh && (m.aliasOf === undefined || kept.has(m.aliasOf))) kept.add(m.id);
    else drop(m);
  });
  // Files of entries never filled (an interrupted run) older than the limit.
  for (const f of safeList(dir)) {
    if (!/^[0-9a-f]{7}\.(?:txt|json|json\.tmp)$/.test(f) || kept.has(f.slice(0, 7))) continue;
    try {
      if (lstatSync(join(dir, f)).mtimeMs < oldest) unlinkSync(join(dir, f));
    } catch {
      // ignore
    }
  }
}
