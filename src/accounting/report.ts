// The figures of `rtk gain`, as data (the text, JSON and CSV printers and a
// page report all read these): totals, routes, periods, latest runs, failures.
// Every function reads the store after the caller has ingested the spool.
import { filterSql, type Filter, type Store } from "./store.js";
import type { RunRecord } from "./types.js";
import { exactTokens } from "./tokens.js";
import { sessionContext } from "../text/markers.js";

export interface Totals {
  /** Runs of `rtk <tool>` (recalls not included). */
  runs: number;
  rawTokens: number;
  outTokens: number;
  /** Raw tokens as far as the host would have shown them, less what rtk printed; negative when rtk printed more. */
  savedTokens: number;
  /** savedTokens against rawTokens, in percent (0 with no raw tokens). */
  savedPct: number;
  omitted: number;
  /** `rtk recall` runs: each an omission that cost the agent a second call. */
  recalls: number;
  fellBack: number;
  /** Runs whose raw tokens were counted exactly (the raw text was still in the recall store); the others' are estimated. */
  exactRuns: number;
  /** Bytes the tools printed, and bytes rtk wrote to stdout and stderr for them (what the tokens are estimated from). */
  rawBytes: number;
  outBytes: number;
}

export interface RouteRow extends Totals {
  route: string;
}

export interface PeriodRow extends Totals {
  /** `2026-12-03`, `2026-W49` or `2026-12`, in local time. */
  period: string;
}

/** A run as its record has it, with tokens where the record has bytes. */
export interface HistoryRow extends Pick<RunRecord, "time" | "project" | "route" | "command" | "exitCode" | "durationMs" | "fellBack" | "omitted" | "recallId"> {
  rawTokens: number;
  outTokens: number;
  savedTokens: number;
  /** Its raw tokens were counted exactly, not estimated. */
  exact: boolean;
}

export interface FailureRow {
  route: string;
  runs: number;
  fellBack: number;
  /** Share of the route's runs that fell back, in percent. */
  pct: number;
  /** Runs whose tool exited non-zero. */
  nonZeroExit: number;
}

export type Period = "daily" | "weekly" | "monthly";

const SUMS = `count(*) AS runs, coalesce(sum(raw_tokens),0) AS raw, coalesce(sum(out_tokens),0) AS out, coalesce(sum(saved_tokens),0) AS saved,
  coalesce(sum(omitted),0) AS omitted, coalesce(sum(fell_back),0) AS fell_back, coalesce(sum(exact),0) AS exact,
  coalesce(sum(raw_bytes),0) AS raw_bytes, coalesce(sum(out_bytes),0) AS out_bytes`;

function and(w: { sql: string }, cond: string): string {
  return w.sql ? `${w.sql} AND ${cond}` : `WHERE ${cond}`;
}

function totalsOf(r: Record<string, unknown>, recalls: number): Totals {
  const raw = Number(r["raw"] ?? 0);
  const saved = Number(r["saved"] ?? 0);
  return {
    runs: Number(r["runs"] ?? 0),
    rawTokens: raw,
    outTokens: Number(r["out"] ?? 0),
    savedTokens: saved,
    savedPct: raw ? (saved / raw) * 100 : 0,
    omitted: Number(r["omitted"] ?? 0),
    recalls,
    fellBack: Number(r["fell_back"] ?? 0),
    exactRuns: Number(r["exact"] ?? 0),
    rawBytes: Number(r["raw_bytes"] ?? 0),
    outBytes: Number(r["out_bytes"] ?? 0),
  };
}

/** Sums per route in one scan (recalls as the route `recall`): what totals and byRoute are made of. */
export function routeSums(store: Store, f: Filter): Record<string, unknown>[] {
  const w = filterSql(f);
  return store.db.all(`SELECT route, ${SUMS} FROM runs ${w.sql} GROUP BY route`, w.params);
}

export function totals(store: Store, f: Filter, sums: Record<string, unknown>[] = routeSums(store, f)): Totals {
  const all: Record<string, number> = { runs: 0, raw: 0, out: 0, saved: 0, omitted: 0, fell_back: 0, exact: 0, raw_bytes: 0, out_bytes: 0 };
  let recalls = 0;
  for (const r of sums) {
    if (r["route"] === "recall") {
      recalls += Number(r["runs"]);
      continue;
    }
    for (const k of Object.keys(all)) all[k]! += Number(r[k] ?? 0);
  }
  return totalsOf(all, recalls);
}

/** Routes by tokens saved, most first. A recall counts for the route of the run whose output it recalled. */
export function byRoute(store: Store, f: Filter, sums: Record<string, unknown>[] = routeSums(store, f)): RouteRow[] {
  const recalls = new Map<string, number>();
  const wr = filterSql(f, "r.time");
  for (const r of store.db.all(
    `SELECT coalesce((SELECT o.route FROM runs o WHERE o.recall_id = r.recall_id AND o.route <> 'recall' ORDER BY o.time DESC LIMIT 1), '(unknown)') AS route, count(*) AS n
       FROM runs r ${and(wr, "r.route = 'recall'")} GROUP BY 1`,
    wr.params,
  ))
    recalls.set(String(r["route"]), Number(r["n"]));
  const out = sums.filter((r) => r["route"] !== "recall").map((r) => ({ route: String(r["route"]), ...totalsOf(r, recalls.get(String(r["route"])) ?? 0) }));
  for (const [route, n] of recalls) if (!out.some((r) => r.route === route)) out.push({ route, ...totalsOf({}, n) });
  return out.sort((a, b) => b.savedTokens - a.savedTokens || b.runs - a.runs || a.route.localeCompare(b.route));
}

/** Runs are summed per quarter hour in SQL (an index holds them in that order); every UTC offset in use is a whole number of quarter hours, so each falls in one local day. */
const QUARTER_MS = 900_000;

const pad = (n: number) => String(n).padStart(2, "0");

/** The local day, week (named by its Monday) or month a time falls in. */
export function periodOf(time: number, period: Period): string {
  const d = new Date(time);
  if (period === "monthly") return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
  if (period === "weekly") d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Totals per day, week (named by its Monday) or month, in local time, oldest first. */
export function byPeriod(store: Store, f: Filter, period: Period): PeriodRow[] {
  const w = filterSql(f);
  const run = (col: string) => `coalesce(sum(CASE WHEN route <> 'recall' THEN ${col} END), 0)`;
  const rows = store.db.all(
    `SELECT time / ${QUARTER_MS} AS q, sum(route <> 'recall') AS runs, ${run("raw_tokens")} AS raw, ${run("out_tokens")} AS out, ${run("saved_tokens")} AS saved,
       ${run("omitted")} AS omitted, ${run("fell_back")} AS fell_back, ${run("exact")} AS exact, ${run("raw_bytes")} AS raw_bytes, ${run("out_bytes")} AS out_bytes,
       sum(route = 'recall') AS recalls FROM runs ${w.sql} GROUP BY time / ${QUARTER_MS}`,
    w.params,
  );
  const keys = ["runs", "raw", "out", "saved", "omitted", "fell_back", "exact", "raw_bytes", "out_bytes", "recalls"] as const;
  const sums = new Map<string, Record<(typeof keys)[number], number>>();
  for (const r of rows) {
    const p = periodOf(Number(r["q"]) * QUARTER_MS, period);
    let acc = sums.get(p);
    if (!acc) sums.set(p, (acc = { runs: 0, raw: 0, out: 0, saved: 0, omitted: 0, fell_back: 0, exact: 0, raw_bytes: 0, out_bytes: 0, recalls: 0 }));
    for (const k of keys) acc[k] += Number(r[k] ?? 0);
  }
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([p, acc]) => ({ period: p, ...totalsOf(acc, acc.recalls) }));
}

/** The latest `limit` runs (recalls included), newest first. */
export function history(store: Store, f: Filter, limit: number): HistoryRow[] {
  const w = filterSql(f);
  return store.db.all(`SELECT * FROM runs ${w.sql} ORDER BY time DESC, id DESC LIMIT ?`, [...w.params, limit]).map((r) => ({
    time: Number(r["time"]),
    project: String(r["project"]),
    route: String(r["route"]),
    command: String(r["command"]),
    exitCode: Number(r["exit_code"]),
    durationMs: Number(r["duration_ms"]),
    rawTokens: Number(r["raw_tokens"]),
    outTokens: Number(r["out_tokens"]),
    savedTokens: Number(r["saved_tokens"]),
    fellBack: Number(r["fell_back"]) === 1,
    omitted: Number(r["omitted"]),
    recallId: r["recall_id"] === null ? null : String(r["recall_id"]),
    exact: Number(r["exact"]) === 1,
  }));
}

/** Routes whose filter fell back to the raw output, most first. */
export function failures(store: Store, f: Filter): FailureRow[] {
  const w = filterSql(f);
  return store.db
    .all(
      `SELECT route, count(*) AS runs, sum(fell_back) AS fb, sum(exit_code <> 0) AS nz FROM runs ${and(w, "route NOT IN ('recall', 'raw')")} GROUP BY route HAVING sum(fell_back) > 0 ORDER BY fb DESC, route`,
      w.params,
    )
    .map((r) => ({ route: String(r["route"]), runs: Number(r["runs"]), fellBack: Number(r["fb"]), pct: (Number(r["fb"]) / Number(r["runs"])) * 100, nonZeroExit: Number(r["nz"]) }));
}

/** Torn spool lines skipped over the store's life. */
export function tornLines(store: Store): number {
  return Number(store.db.all("SELECT value FROM meta WHERE key = 'torn'")[0]?.["value"] ?? 0);
}

export interface HookCoverage {
  /** Commands the hooks were asked about. */
  decisions: number;
  /** Handed back rewritten (some part runs through rtk). */
  rewritten: number;
  /** Left as written, each counted once under `keptByReason`. */
  kept: number;
  /** Of the kept ones, those the hook denied. */
  denied: number;
  /** Kept commands by the reason of their first part (`unread` when the hook could not read the command), most first. */
  keptByReason: { reason: string; decisions: number }[];
}

/** What the hooks saw: rewritten vs kept raw, and why they were kept. */
export function hookCoverage(store: Store, f: Filter): HookCoverage {
  const w = filterSql(f);
  const cov: HookCoverage = { decisions: 0, rewritten: 0, kept: 0, denied: 0, keptByReason: [] };
  const reasons = new Map<string, number>();
  // Grouped by the reason lists as stored: few distinct lists, however many decisions.
  // A session's context is no decision about a command.
  const sql = `${w.sql ? `${w.sql} AND` : "WHERE"} verdict <> 'context'`;
  for (const r of store.db.all(`SELECT rewritten IS NOT NULL AS rw, verdict = 'deny' AS denied, reasons, count(*) AS n FROM hooks ${sql} GROUP BY 1, 2, 3`, w.params)) {
    const n = Number(r["n"]);
    cov.decisions += n;
    if (Number(r["rw"])) {
      cov.rewritten += n;
      continue;
    }
    cov.kept += n;
    if (Number(r["denied"])) cov.denied += n;
    let list: unknown;
    try {
      list = JSON.parse(String(r["reasons"]));
    } catch {
      list = [];
    }
    const ids = Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
    const reason = ids.find((x) => x !== "routed") ?? ids[0] ?? "unread";
    reasons.set(reason, (reasons.get(reason) ?? 0) + n);
  }
  cov.keptByReason = [...reasons].map(([reason, decisions]) => ({ reason, decisions })).sort((a, b) => b.decisions - a.decisions || a.reason.localeCompare(b.reason));
  return cov;
}

export interface SessionContextCost {
  /** Session starts a hook added rtk's context to. */
  sessions: number;
  /** o200k tokens of the context (the text this version adds). */
  tokensPerSession: number;
  /** What the context cost: sessions × tokensPerSession. */
  tokens: number;
}

/** What telling the agent about rtk cost: one context per session start recorded. */
export function sessionContextCost(store: Store, f: Filter): SessionContextCost {
  const w = filterSql(f);
  const sql = `${w.sql ? `${w.sql} AND` : "WHERE"} verdict = 'context'`;
  const sessions = Number(store.db.all(`SELECT count(*) AS n FROM hooks ${sql}`, w.params)[0]?.["n"] ?? 0);
  const text = sessionContext();
  const tokensPerSession = exactTokens(text) ?? Math.round(text.length / 4);
  return { sessions, tokensPerSession, tokens: sessions * tokensPerSession };
}
