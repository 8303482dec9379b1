// What the exports did, kept beside the store for `rtk doctor` and the back-off:
// a small JSON file (doctor opens no database), and the stamp whose modification
// time is the earliest a run may start the next background export. The cursor
// itself is in the store (telemetry/batch.ts), committed with nothing else.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir, type Env } from "../config/paths.js";

export interface ExportState {
  /** When an export last tried to send, and when a batch last reached the collector (ms since the epoch). */
  lastAttempt: number | null;
  lastSuccess: number | null;
  /** Records in the last batch sent, and in all batches sent. */
  lastBatchRecords: number;
  sentRecords: number;
  /** Exports that failed in a row (the back-off grows with them), and why the last one did. */
  failures: number;
  lastError: string | null;
}

export const EMPTY_STATE: ExportState = { lastAttempt: null, lastSuccess: null, lastBatchRecords: 0, sentRecords: 0, failures: 0, lastError: null };

export function telemetryDir(env: Env): string {
  return join(dataDir(env), "telemetry");
}

export function statePath(env: Env): string {
  return join(telemetryDir(env), "state.json");
}

/** The stamp: its modification time is when the next background export may start. */
export function stampPath(env: Env): string {
  return join(telemetryDir(env), "next-export");
}

export function readState(env: Env): ExportState {
  try {
    return { ...EMPTY_STATE, ...(JSON.parse(readFileSync(statePath(env), "utf8")) as Partial<ExportState>) };
  } catch {
    return { ...EMPTY_STATE };
  }
}

/** Written whole or not at all (a temporary file renamed over it). */
export function writeState(env: Env, state: ExportState): void {
  try {
    ensureDir(env);
    const tmp = `${statePath(env)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state) + "\n", { mode: 0o600 });
    renameSync(tmp, statePath(env));
  } catch {
    // doctor then says less; the export itself is unaffected
  }
}

/** When the stamp lets the next background export start (0: no stamp, at once). */
export function nextExportAt(env: Env): number {
  return statSync(stampPath(env), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/** Moves the stamp to `at`: the earliest a run starts the next background export. */
export function setNextExport(env: Env, at: number): void {
  ensureDir(env);
  const path = stampPath(env);
  closeSync(openSync(path, "a", 0o600));
  utimesSync(path, at / 1000, at / 1000);
}

export function ensureDir(env: Env): void {
  mkdirSync(telemetryDir(env), { recursive: true, mode: 0o700 });
}

/** The wait after `failures` failed exports in a row: the interval doubled each time, at most an hour (never less than the interval). */
export function backoffMs(intervalMs: number, failures: number): number {
  if (failures <= 0) return intervalMs;
  return Math.max(intervalMs, Math.min(3_600_000, intervalMs * 2 ** Math.min(failures, 12)));
}
