// What the store's tests share: a sandbox with a few files to list, records to
// spool by hand, and the report bundle's own driver to look inside the database.
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { HookRecord, RunRecord } from "../../src/accounting/types.js";
import { repoRoot } from "../support/corpus.js";
import { launchSync } from "../support/launch.js";
import { sandbox, type Sandbox } from "../support/sandbox.js";

export const REPORT = join(repoRoot, "dist", "rtk-report.cjs");
type Db = { exec(sql: string): void; all(sql: string): Record<string, unknown>[]; close(): void };
export const reports = () => createRequire(import.meta.url)(REPORT) as { openDb(path: string, opts?: { readOnly?: boolean }): Db };

export function box(): Sandbox {
  const b = sandbox("rtk-store-", { TZ: "UTC" });
  for (let i = 0; i < 5; i++) writeFileSync(join(b.cwd, `f${i}`), "x\n");
  return b;
}

export const rtkDir = (b: Sandbox) => join(b.data, "rtk");
export const dbPath = (b: Sandbox) => join(rtkDir(b), "history.db");

export function run(over: Partial<RunRecord> = {}): RunRecord {
  return {
    kind: "run",
    time: Date.now(),
    project: "/p",
    route: "git.status",
    command: "git status",
    exitCode: 0,
    durationMs: 5,
    rawBytes: 400,
    outBytes: 100,
    fellBack: false,
    omitted: 0,
    recallId: null,
    ...over,
  };
}

export function hook(over: Partial<HookRecord> = {}): HookRecord {
  return {
    kind: "hook",
    time: Date.now(),
    host: "claude",
    session: "s",
    toolUseId: "t",
    project: "/p",
    command: "git status",
    rewritten: "rtk git status",
    verdict: "rewrite-allow",
    reasons: ["routed"],
    ...over,
  };
}

export function spoolLines(b: Sandbox, recs: (RunRecord | HookRecord)[]): void {
  mkdirSync(rtkDir(b), { recursive: true, mode: 0o700 });
  appendFileSync(join(rtkDir(b), "spool.jsonl"), recs.map((r) => JSON.stringify(r) + "\n").join(""));
}

export function gainJson(b: Sandbox, args: string[] = []): { totals: { runs: number; recalls: number }; tornLines: number } & Record<string, unknown> {
  const r = launchSync(["gain", "--json", ...args], { cwd: b.cwd, env: b.env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

export function integrity(b: Sandbox): string {
  const db = reports().openDb(dbPath(b), { readOnly: true });
  try {
    return String(db.all("PRAGMA integrity_check")[0]?.["integrity_check"]);
  } finally {
    db.close();
  }
}
