// The history store: SQLite at $XDG_DATA_HOME/rtk/history.db, filled from the
// spool when a report reads it. Ingestion renames the spool aside first (an
// appender that opened it before still writes into the renamed file, which is
// read again at the next ingestion from where this one stopped), then inserts
// its whole lines in one transaction with the offset reached, so a record is
// neither lost nor counted twice. A torn line (a writer killed mid-write, a
// full disk) is skipped and counted. Records older than 90 days are pruned.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { tryLockDir } from "../fs/lock-dir.js";
import { loadConfig } from "../config/load.js";
import { dataDir, type Env } from "../config/paths.js";
import { SPOOL_NAME } from "./spool.js";
import { openDb, type Db, type Row } from "./sqlite.js";
import { readRecallText, recallDir } from "../runtime/recall.js";
import { charsOf, charsOfBytes, estimateTokens, EXACT_BOUND_BYTES, exactTokens, savedTokens } from "./tokens.js";
import type { HookRecord, HookVerdict, RunRecord } from "./types.js";

export const RETENTION_DAYS = 90;
const DAY = 86_400_000;
/** A renamed spool file this old has no appender left in it. */
const SETTLED_MS = 60_000;
const INGESTING = /^spool\.\d+\.\d+\.[a-z0-9]+\.ingesting$/;

/** Each migration takes the schema from its index to the next version. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
     id INTEGER PRIMARY KEY,
     time INTEGER NOT NULL,
     project TEXT NOT NULL,
     route TEXT NOT NULL,
     command TEXT NOT NULL,
     exit_code INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL,
     raw_bytes INTEGER NOT NULL,
     out_bytes INTEGER NOT NULL,
     raw_tokens INTEGER NOT NULL,
     out_tokens INTEGER NOT NULL,
     saved_tokens INTEGER NOT NULL,
     fell_back INTEGER NOT NULL,
     omitted INTEGER NOT NULL,
     recall_id TEXT
   );
   CREATE INDEX runs_time ON runs(time);
   CREATE INDEX runs_project ON runs(project, time);
   CREATE INDEX runs_recall ON runs(recall_id) WHERE recall_id IS NOT NULL;
   CREATE TABLE hooks (
     id INTEGER PRIMARY KEY,
     time INTEGER NOT NULL,
     host TEXT NOT NULL,
     session TEXT,
     tool_use_id TEXT,
     project TEXT NOT NULL,
     command TEXT NOT NULL,
     rewritten TEXT,
     verdict TEXT NOT NULL,
     reasons TEXT NOT NULL
   );
   CREATE INDEX hooks_time ON hooks(time);
   CREATE INDEX hooks_tool_use ON hooks(tool_use_id);
   CREATE TABLE spool_files (name TEXT PRIMARY KEY, offset INTEGER NOT NULL);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`,
  // 1 where the raw tokens were counted exactly (the raw text was still in the recall store), else estimated.
  `ALTER TABLE runs ADD COLUMN exact INTEGER NOT NULL DEFAULT 0;`,
  // Covering indexes for the reports' sums, so that none sorts or reads the table's rows:
  // by route, by quarter hour (report.ts makes days, weeks and months of them), and the hooks by outcome.
  `CREATE INDEX runs_route_sums ON runs(route, time, project, raw_tokens, out_tokens, saved_tokens, omitted, fell_back, exact);
   CREATE INDEX runs_quarter_sums ON runs(time / 900000, time, project, route, raw_tokens, out_tokens, saved_tokens, omitted, fell_back, exact);
   CREATE INDEX hooks_outcome ON hooks(reasons, verdict, rewritten IS NOT NULL, time, project);`,
  // How long the hook took to answer (ms), for the telemetry's latency histogram; null in older records.
  `ALTER TABLE hooks ADD COLUMN duration_ms REAL;`,
];
export const SCHEMA_VERSION = MIGRATIONS.length;

export type StoreProblem = "locked" | "read-only" | "full" | "corrupt" | "newer" | "unavailable";

/** What is wrong with the store, in one line for the user. */
export class StoreError extends Error {
  constructor(
    readonly problem: StoreProblem,
    message: string,
  ) {
    super(message);
  }
}

export function databasePath(env: Env): string {
  return join(dataDir(env), "history.db");
}

/** The driver's error as a StoreError saying what is wrong and what to do. */
export function storeError(e: unknown, path: string): StoreError {
  if (e instanceof StoreError) return e;
  const m = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string; errcode?: number }).code ?? "";
  if (/SQLITE_BUSY|database is locked|locked/i.test(m) || code === "SQLITE_BUSY")
    return new StoreError("locked", `the history database ${path} is locked by another process; try again when it is done`);
  if (/SQLITE_FULL|disk is full|ENOSPC|SQLITE_IOERR_WRITE|disk I\/O error/i.test(m) || code === "ENOSPC")
    return new StoreError("full", `cannot write the history database ${path}: the disk is full (or the write failed); the records wait in the spool`);
  if (/SQLITE_CORRUPT|SQLITE_NOTADB|malformed|not a database/i.test(m))
    return new StoreError("corrupt", `the history database ${path} is damaged (${m.replace(/\s+/g, " ")}); it is left as it is: move it aside (mv ${path} ${path}.bad) for rtk to start a new one`);
  if (/readonly|read-only|SQLITE_READONLY|SQLITE_CANTOPEN|unable to open|EACCES|EROFS|EPERM/i.test(m) || ["EACCES", "EROFS", "EPERM"].includes(code))
    return new StoreError("read-only", `cannot write the history database ${path} (${m.replace(/\s+/g, " ")}); the records wait in the spool`);
  return new StoreError("unavailable", `the history database ${path} cannot be used: ${m.replace(/\s+/g, " ")}`);
}

export interface Store {
  db: Db;
  path: string;
  /** Closes the database and lets the next report in. */
  close(): void;
}

/** Opens the store (creating it and its folder, owner-only) and brings its schema up to date. */
export function openStore(env: Env, path: string = databasePath(env)): Store {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const unlock = reportLock(path);
    try {
      clearStaleLock(path);
      const fresh = !existsSync(path);
      const db = withBusyRetry(() => openDb(path, { timeoutMs: 2000 }));
      try {
        if (fresh) createOwnerOnly(path);
        migrate(db);
      } catch (e) {
        db.close();
        throw e;
      }
      return {
        db,
        path,
        close: () => {
          try {
            db.close();
          } finally {
            unlock();
          }
        },
      };
    } catch (e) {
      unlock();
      throw e;
    }
  } catch (e) {
    throw storeError(e, path);
  }
}

/**
 * One report at a time: node:sqlite locks with the system's file locks, the
 * WebAssembly driver with a folder, and neither sees the other's. rtk's own
 * lock folder, taken by both, keeps reports under two Node versions apart.
 */
function reportLock(path: string): () => void {
  for (let waited = 0; ; waited += 50) {
    // One left by a report that was killed is taken over: no report holds the store this long.
    const release = tryLockDir(`${path}.rtk-lock`, SETTLED_MS);
    if (release) return release;
    if (waited >= 3000) throw new StoreError("locked", `the history database ${path} is in use by another rtk report; try again when it is done`);
    sleep(50);
  }
}

/** A new database file is the owner's alone (the driver creates it with the umask's mode). */
function createOwnerOnly(path: string): void {
  try {
    const fd = openSync(path, "r");
    closeSync(fd);
    // chmod through the path: the driver holds its own descriptor.
    chmodSync(path, 0o600);
  } catch {
    // not fatal: the folder is owner-only
  }
}

/**
 * The WebAssembly driver locks with a `<db>.lock` folder, which a report killed
 * mid-way leaves behind; no report holds it for long, so one this old is stale.
 */
function clearStaleLock(path: string): void {
  const lock = `${path}.lock`;
  const st = statSync(lock, { throwIfNoEntry: false });
  if (st && Date.now() - st.mtimeMs > SETTLED_MS) {
    try {
      rmdirSync(lock);
    } catch {
      // another process took it meanwhile
    }
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A lock held for a moment is waited for, 2 s in all by the clock: the WebAssembly
 * driver has no busy timeout of its own, and node:sqlite's spends its own 2 s in
 * each attempt.
 */
function withBusyRetry<T>(fn: () => T): T {
  const deadline = Date.now() + 2000;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (Date.now() >= deadline || !/SQLITE_BUSY|database is locked/i.test(e instanceof Error ? e.message : String(e))) throw e;
      sleep(50);
    }
  }
}

function migrate(db: Db): void {
  const version = Number(db.all("PRAGMA user_version")[0]?.["user_version"] ?? 0);
  if (version > SCHEMA_VERSION) throw new StoreError("newer", `the history database was made by a newer rtk (schema ${version}, this rtk knows ${SCHEMA_VERSION}); it is left as it is`);
  if (version === SCHEMA_VERSION) return;
  withBusyRetry(() => db.exec("BEGIN IMMEDIATE"));
  try {
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

export interface IngestResult {
  runs: number;
  hooks: number;
  /** Lines that were not whole records (a writer killed mid-line), skipped. */
  torn: number;
  pruned: number;
}

/** Moves the spool aside and ingests every spool file not yet read to its end, in one transaction. */
export function ingest(store: Store, env: Env, now = Date.now()): IngestResult {
  const dir = dataDir(env);
  moveSpoolAside(dir, now);
  const names = readdirSync(dir)
    .filter((n) => INGESTING.test(n))
    .sort();
  const db = store.db;
  try {
    withBusyRetry(() => db.exec("BEGIN IMMEDIATE"));
  } catch (e) {
    throw storeError(e, store.path);
  }
  const result: IngestResult = { runs: 0, hooks: 0, torn: 0, pruned: 0 };
  let done: string[];
  try {
    done = insertSpoolFiles(db, env, dir, names, now, result);
    if (result.torn) db.run("INSERT INTO meta (key, value) VALUES ('torn', ?) ON CONFLICT(key) DO UPDATE SET value = value + excluded.value", [result.torn]);
    result.pruned = prune(db, now);
    db.exec("COMMIT");
  } catch (e) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // the transaction is already gone
    }
    throw storeError(e, store.path);
  }
  // Committed: the files read to their end go (a crash before this leaves them, and their offsets say they were read).
  for (const p of done) {
    try {
      unlinkSync(p);
    } catch {
      // gone already
    }
  }
  return result;
}

/** Renames the live spool to a file of its own for this ingest, so writers start a new one. */
function moveSpoolAside(dir: string, now: number): void {
  try {
    const live = join(dir, SPOOL_NAME);
    if (existsSync(live)) renameSync(live, join(dir, `spool.${now}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.ingesting`));
  } catch {
    // Another report moved it first: its file is read below or by that report.
  }
}

/**
 * Inserts the records of the spool files `names` from the offset each was read to, counting
 * them in `result`; returns the files read to their end and settled (no writer left).
 */
function insertSpoolFiles(db: Db, env: Env, dir: string, names: readonly string[], now: number, result: IngestResult): string[] {
  const offsets = new Map(db.all("SELECT name, offset FROM spool_files").map((r) => [String(r["name"]), Number(r["offset"])]));
  // Files removed after an earlier commit no longer need their offsets.
  for (const name of offsets.keys()) if (!names.includes(name)) db.run("DELETE FROM spool_files WHERE name = ?", [name]);
  const insertRun = db.prepare(
    "INSERT INTO runs (time, project, route, command, exit_code, duration_ms, raw_bytes, out_bytes, raw_tokens, out_tokens, saved_tokens, fell_back, omitted, recall_id, exact) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const insertHook = db.prepare("INSERT INTO hooks (time, host, session, tool_use_id, project, command, rewritten, verdict, reasons, duration_ms) VALUES (?,?,?,?,?,?,?,?,?,?)");
  const hookRow = (rec: HookRecord) => [rec.time, rec.host, rec.session, rec.toolUseId, rec.project, rec.command, rec.rewritten, rec.verdict, JSON.stringify(rec.reasons), rec.durationMs ?? null];
  const placeholders = IDS.map((t) => holdIds(db, t));
  const runRow = rowMaker(recallDir(env));
  const insert = (rec: RunRecord | HookRecord | null) => {
    if (rec === null) result.torn++;
    else if (rec.kind === "run") {
      insertRun.run(runRow(rec));
      result.runs++;
    } else {
      insertHook.run(hookRow(rec));
      result.hooks++;
    }
  };
  const setOffset = db.prepare("INSERT INTO spool_files (name, offset) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET offset = excluded.offset");
  const done: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    const settled = now - st.mtimeMs > SETTLED_MS;
    const from = offsets.get(name) ?? 0;
    const { lines, consumed, tail } = readLines(path, from);
    for (const line of lines) insert(parseLine(line));
    // A last line without its newline is torn once no writer can still finish it.
    const end = settled && tail > 0 ? consumed + tail : consumed;
    if (settled && tail > 0) insert(parseLine(readTail(path, consumed, tail)));
    // Kept even for a file about to go: were it left by a crash, it would not be read twice.
    setOffset.run([name, end]);
    if (settled) done.push(path);
  }
  for (const st of [insertRun, insertHook, setOffset]) st.finalize();
  for (const release of placeholders) release();
  return done;
}

/** Removes runs and hooks past the retention; returns how many runs went. */
function prune(db: Db, now: number): number {
  const cutoff = now - RETENTION_DAYS * DAY;
  const before = Number(db.all("SELECT count(*) AS n FROM runs WHERE time < ?", [cutoff])[0]?.["n"] ?? 0);
  if (before) db.run("DELETE FROM runs WHERE time < ?", [cutoff]);
  db.run("DELETE FROM hooks WHERE time < ?", [cutoff]);
  return before;
}

const IDS = ["runs", "hooks"] as const;

/**
 * Row ids are never given twice (the telemetry's cursor counts on it): SQLite
 * gives a new row the largest id in the table plus one, so a table the pruning
 * emptied would start again from 1. The largest id ever given is kept in meta;
 * while the table holds none as large, a placeholder row holds that id during
 * the inserts, and goes once they are done. Returns what removes it and
 * records the new largest id.
 */
function holdIds(db: Db, table: (typeof IDS)[number]): () => void {
  const key = `${table}_max_id`;
  const high = Number(db.all("SELECT value FROM meta WHERE key = ?", [key])[0]?.["value"] ?? 0);
  const max = Number(db.all(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)[0]?.["m"] ?? 0);
  const held = max < high;
  if (held) {
    if (table === "runs")
      db.run(
        "INSERT INTO runs (id, time, project, route, command, exit_code, duration_ms, raw_bytes, out_bytes, raw_tokens, out_tokens, saved_tokens, fell_back, omitted) VALUES (?, 0, '', '', '', 0, 0, 0, 0, 0, 0, 0, 0, 0)",
        [high],
      );
    else db.run("INSERT INTO hooks (id, time, host, project, command, verdict, reasons) VALUES (?, 0, '', '', '', 'pass', '[]')", [high]);
  }
  return () => {
    const now = Number(db.all(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)[0]?.["m"] ?? 0);
    if (now > high) db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, now]);
    if (held) db.run(`DELETE FROM ${table} WHERE id = ?`, [high]);
  };
}

/**
 * A run's row. Its raw tokens are counted exactly where the recall store still
 * holds the whole raw output (up to EXACT_BOUND_BYTES), else estimated from its
 * features; the printed output is not kept, so its tokens are always estimated.
 */
function rowMaker(recall: string): (r: RunRecord) => (number | string | null)[] {
  return (r) => {
    const text = r.recallId !== null && r.route !== "recall" && r.rawBytes > 0 && r.rawBytes <= EXACT_BOUND_BYTES ? readRecallText(recall, r.recallId) : null;
    const counted = text !== null && text.length === r.rawBytes ? exactTokens(text.toString("utf8")) : null;
    const exact = counted !== null;
    const rawTokens = counted ?? estimateTokens(r.rawFeatures, r.rawBytes);
    const rawChars = exact ? charsOfBytes(text!) : charsOf(r.rawFeatures, r.rawBytes);
    const outTokens = r.fellBack ? rawTokens : estimateTokens(r.outFeatures, r.outBytes);
    const saved = savedTokens({ fellBack: r.fellBack, rawTokens, rawChars, outTokens });
    return [r.time, r.project, r.route, r.command, r.exitCode, r.durationMs, r.rawBytes, r.outBytes, rawTokens, outTokens, saved, r.fellBack ? 1 : 0, r.omitted, r.recallId, exact ? 1 : 0];
  };
}

/** A spool line as a record; a line that two writers' bytes share (one killed mid-line) yields the whole record that ends it. */
export function parseLine(line: string): RunRecord | HookRecord | null {
  for (let at = 0; at >= 0; at = line.indexOf('{"kind":', at + 1)) {
    try {
      const v = JSON.parse(at ? line.slice(at) : line) as Record<string, unknown>;
      if (valid(v)) return v as unknown as RunRecord | HookRecord;
    } catch {
      // not a whole record from here: try the next start
    }
  }
  return null;
}

const VERDICTS: ReadonlySet<HookVerdict> = new Set(["rewrite-allow", "rewrite-ask", "allow-typed", "deny", "pass", "context"]);

function valid(v: Record<string, unknown>): boolean {
  const num = (k: string) => typeof v[k] === "number" && Number.isFinite(v[k]);
  const str = (k: string) => typeof v[k] === "string";
  if (v["kind"] === "run")
    return (
      num("time") &&
      str("project") &&
      str("route") &&
      str("command") &&
      num("exitCode") &&
      num("durationMs") &&
      num("rawBytes") &&
      num("outBytes") &&
      num("omitted") &&
      typeof v["fellBack"] === "boolean"
    );
  if (v["kind"] === "hook") return num("time") && str("host") && str("project") && str("command") && VERDICTS.has(v["verdict"] as HookVerdict) && Array.isArray(v["reasons"]);
  return false;
}

/** The whole lines of a file from `from`, where they end, and the bytes after the last newline. */
function readLines(path: string, from: number): { lines: string[]; consumed: number; tail: number } {
  const fd = openSync(path, "r");
  try {
    const size = statSync(path).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, from + got);
      if (n <= 0) break;
      got += n;
    }
    const last = buf.lastIndexOf(0x0a, got - 1);
    const whole = last < 0 ? 0 : last + 1;
    const lines = buf.subarray(0, whole).toString("utf8").split("\n");
    lines.pop();
    return { lines: lines.filter((l) => l.length > 0), consumed: from + whole, tail: got - whole };
  } finally {
    closeSync(fd);
  }
}

function readTail(path: string, at: number, length: number): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, at);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

export interface Filter {
  since?: number;
  project?: string;
}

function where(f: Filter, time = "time"): { sql: string; params: (string | number)[] } {
  const project = time.includes(".") ? `${time.split(".")[0]}.project` : "project";
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (f.since !== undefined) {
    parts.push(`${time} >= ?`);
    params.push(f.since);
  }
  if (f.project !== undefined) {
    parts.push(`(${project} = ? OR substr(${project}, 1, ?) = ?)`);
    const prefix = f.project.endsWith("/") ? f.project : f.project + "/";
    params.push(f.project, prefix.length, prefix);
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

export { where as filterSql };

/**
 * The hook decisions in the store after ingesting the spool (for `rtk discover`
 * to join with transcripts by tool-use id), oldest first. Throws StoreError.
 */
export function hookDecisions(opts: { since?: number; project?: string; env?: Env } = {}): HookRecord[] {
  const env = opts.env ?? process.env;
  const store = openStore(env, configuredDatabase(env));
  try {
    ingest(store, env);
    const w = where(opts);
    // A session's context is no decision about a command.
    return store.db.all(`SELECT * FROM hooks ${w.sql ? `${w.sql} AND` : "WHERE"} verdict <> 'context' ORDER BY time, id`, w.params).map(hookRecord);
  } catch (e) {
    throw storeError(e, store.path);
  } finally {
    store.close();
  }
}

/** `tracking.database` of the config that applies here (default: history.db in rtk's data folder). */
export function configuredDatabase(env: Env, cwd: string = process.cwd()): string {
  try {
    return loadConfig(env, cwd).tracking.database;
  } catch {
    return databasePath(env);
  }
}

function hookRecord(r: Row): HookRecord {
  return {
    kind: "hook",
    time: Number(r["time"]),
    host: String(r["host"]),
    session: r["session"] === null ? null : String(r["session"]),
    toolUseId: r["tool_use_id"] === null ? null : String(r["tool_use_id"]),
    project: String(r["project"]),
    command: String(r["command"]),
    rewritten: r["rewritten"] === null ? null : String(r["rewritten"]),
    verdict: String(r["verdict"]) as HookVerdict,
    reasons: JSON.parse(String(r["reasons"])) as string[],
    ...(r["duration_ms"] === null || r["duration_ms"] === undefined ? {} : { durationMs: Number(r["duration_ms"]) }),
  };
}
