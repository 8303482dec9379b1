// The export's side of the store: which records the next batch holds, read as
// metric values, and the cursor moved once the collector took them. A batch is
// fixed before it is sent (its id ranges and its time window written to the
// store's meta table), and sent again exactly as fixed until a collector answers
// 2xx: only then does the cursor move past it. Row ids are never reused (the
// ingestion keeps them growing), so "after the cursor" is "not yet sent".
import { createHash } from "node:crypto";
import { maskCommand } from "../accounting/mask.js";
import type { Db } from "../accounting/sqlite.js";
import type { MetricKey } from "./metrics.js";

export interface Batch {
  /** Ids after `…From` up to and including `…To` (equal: none of that kind). */
  runsFrom: number;
  runsTo: number;
  hooksFrom: number;
  hooksTo: number;
  /** The delta's window, ms since the epoch: the previous batch's end, and when this one was fixed. */
  start: number;
  end: number;
  /** Fixed by an earlier export that got no 2xx: sent again as it was. */
  retried: boolean;
}

const KEYS = {
  runs: "otlp_runs_cursor",
  hooks: "otlp_hooks_cursor",
  lastEnd: "otlp_last_end",
  pending: "otlp_pending",
  pendingRuns: "otlp_pending_runs",
  pendingHooks: "otlp_pending_hooks",
  pendingStart: "otlp_pending_start",
  pendingEnd: "otlp_pending_end",
  instance: "otlp_instance",
} as const;

function get(db: Db, key: string): number {
  return Number(db.all("SELECT value FROM meta WHERE key = ?", [key])[0]?.["value"] ?? 0);
}

function put(db: Db, key: string, value: number): void {
  db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value]);
}

function inTransaction<T>(db: Db, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const v = fn();
    db.exec("COMMIT");
    return v;
  } catch (e) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // already gone
    }
    throw e;
  }
}

/** The batch to send: the one fixed and not yet taken, else the next `limit` records of each kind (null: nothing new). */
export function fixBatch(db: Db, limit: number, now: number = Date.now()): Batch | null {
  return inTransaction(db, () => {
    const runsFrom = get(db, KEYS.runs);
    const hooksFrom = get(db, KEYS.hooks);
    if (get(db, KEYS.pending))
      return { runsFrom, runsTo: get(db, KEYS.pendingRuns), hooksFrom, hooksTo: get(db, KEYS.pendingHooks), start: get(db, KEYS.pendingStart), end: get(db, KEYS.pendingEnd), retried: true };
    const upTo = (table: string, from: number) =>
      Number(db.all(`SELECT coalesce(max(id), ?) AS m FROM (SELECT id FROM ${table} WHERE id > ? ORDER BY id LIMIT ?)`, [from, from, limit])[0]?.["m"] ?? from);
    const runsTo = upTo("runs", runsFrom);
    const hooksTo = upTo("hooks", hooksFrom);
    if (runsTo === runsFrom && hooksTo === hooksFrom) return null;
    const first = Number(
      db.all("SELECT min(t) AS t FROM (SELECT min(time) AS t FROM runs WHERE id > ? AND id <= ? UNION ALL SELECT min(time) FROM hooks WHERE id > ? AND id <= ?)", [
        runsFrom,
        runsTo,
        hooksFrom,
        hooksTo,
      ])[0]?.["t"] ?? now,
    );
    const lastEnd = get(db, KEYS.lastEnd);
    // Windows follow each other without overlap, so a collector that keys a delta by its stream and start drops a resent one.
    const start = lastEnd || Math.min(first, now);
    const end = Math.max(now, start + 1);
    put(db, KEYS.pending, 1);
    put(db, KEYS.pendingRuns, runsTo);
    put(db, KEYS.pendingHooks, hooksTo);
    put(db, KEYS.pendingStart, start);
    put(db, KEYS.pendingEnd, end);
    return { runsFrom, runsTo, hooksFrom, hooksTo, start, end, retried: false };
  });
}

/** The collector took the batch: the cursor moves past it. */
export function acknowledge(db: Db, b: Batch): void {
  inTransaction(db, () => {
    // Only the batch still pending: an export that lost its lock must not move another's cursor.
    if (!get(db, KEYS.pending) || get(db, KEYS.pendingEnd) !== b.end) return;
    put(db, KEYS.runs, b.runsTo);
    put(db, KEYS.hooks, b.hooksTo);
    put(db, KEYS.lastEnd, b.end);
    put(db, KEYS.pending, 0);
  });
}

/** Records not yet taken by a collector (the pending batch's included). */
export function backlog(db: Db): { runs: number; hooks: number } {
  const n = (table: string, key: string) => Number(db.all(`SELECT count(*) AS n FROM ${table} WHERE id > ?`, [get(db, key)])[0]?.["n"] ?? 0);
  return { runs: n("runs", KEYS.runs), hooks: n("hooks", KEYS.hooks) };
}

/** This store's service.instance.id: random, made once, so two machines' deltas are two streams. */
export function instanceId(db: Db): string {
  let id = get(db, KEYS.instance);
  if (!id) {
    id = 1 + Math.floor(Math.random() * (2 ** 48 - 1));
    inTransaction(db, () => put(db, KEYS.instance, id));
  }
  return id.toString(16).padStart(12, "0");
}

export type Attributes = Record<string, string>;
export type Emit = (metric: MetricKey, value: number, attributes: Attributes) => void;

/** How a project is named in the metrics: a hash of its path (default), its path masked as commands are, or not at all. */
export function projectNamer(mode: "hash" | "path" | "none"): (path: string) => Attributes {
  const seen = new Map<string, Attributes>();
  return (path) => {
    let a = seen.get(path);
    if (!a) {
      a = mode === "none" ? {} : { "rtk.project": mode === "path" ? maskCommand(path) : createHash("sha256").update(path).digest("hex").slice(0, 16) };
      seen.set(path, a);
    }
    return a;
  };
}

/** Every value of the batch's records, handed to `emit`; returns how many records it read. */
export function readBatch(db: Db, b: Batch, project: (path: string) => Attributes, emit: Emit): number {
  let records = 0;
  const runs = db.all(
    `SELECT r.route, r.project, r.duration_ms, r.raw_tokens, r.out_tokens, r.saved_tokens, r.fell_back, r.omitted,
       CASE WHEN r.route = 'recall' THEN coalesce((SELECT o.route FROM runs o WHERE o.recall_id = r.recall_id AND o.route <> 'recall' ORDER BY o.time DESC LIMIT 1), '(unknown)') END AS recalled
       FROM runs r WHERE r.id > ? AND r.id <= ?`,
    [b.runsFrom, b.runsTo],
  );
  for (const r of runs) {
    records++;
    const route = String(r["route"]);
    const where = project(String(r["project"]));
    if (route === "recall") {
      emit("recalls", 1, { "rtk.route": String(r["recalled"]), ...where });
      continue;
    }
    const attrs = { "rtk.route": route, ...where };
    emit("runs", 1, attrs);
    emit("rawTokens", Number(r["raw_tokens"]), attrs);
    emit("printedTokens", Number(r["out_tokens"]), attrs);
    emit("savedTokens", Number(r["saved_tokens"]), attrs);
    if (Number(r["omitted"])) emit("omitted", Number(r["omitted"]), attrs);
    if (Number(r["fell_back"])) emit("fallbacks", 1, attrs);
    emit("runDuration", Number(r["duration_ms"]), { "rtk.route": route });
  }
  const hooks = db.all("SELECT host, project, verdict, rewritten IS NOT NULL AS rw, reasons, duration_ms FROM hooks WHERE id > ? AND id <= ?", [b.hooksFrom, b.hooksTo]);
  for (const h of hooks) {
    records++;
    const host = String(h["host"]);
    const rewritten = Number(h["rw"]) === 1;
    emit("hookDecisions", 1, {
      "rtk.host": host,
      "rtk.hook.outcome": rewritten ? "rewritten" : "kept",
      "rtk.hook.verdict": String(h["verdict"]),
      "rtk.hook.reason": reasonOf(String(h["reasons"]), rewritten),
      ...project(String(h["project"])),
    });
    if (h["duration_ms"] !== null && h["duration_ms"] !== undefined) emit("hookDuration", Number(h["duration_ms"]), { "rtk.host": host });
  }
  return records;
}

/** A decision's reason as `rtk gain` groups kept commands: the first part's reason that is not "routed". */
function reasonOf(json: string, rewritten: boolean): string {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    list = [];
  }
  const ids = Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  if (rewritten) return ids.find((x) => x !== "no-route") ?? "routed";
  return ids.find((x) => x !== "routed") ?? ids[0] ?? "unread";
}
