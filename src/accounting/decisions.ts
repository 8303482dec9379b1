// The hook decisions rtk recorded: what `rtk discover` joins with a transcript's
// tool-use ids, so that a command the hook rewrote (the transcript shows it as
// the agent wrote it) counts as covered. Read from the history store (which
// ingests the spool first); when the store cannot be used, from the spool alone,
// one HookRecord a line, a line that is not one skipped.
import { closeSync, openSync, readSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { Env } from "../config/paths.js";
import { spoolPath } from "./spool.js";
import { hookDecisions, StoreError } from "./store.js";
import type { HookRecord, HookVerdict } from "./types.js";

export interface DecisionQuery {
  /** Only decisions at or after this time (ms since the epoch). */
  since?: number;
  /** Only decisions of this project or a folder inside it. */
  project?: string;
}

export function loadHookDecisions(opts: DecisionQuery, env: Env = process.env, warn: (msg: string) => void = (m) => process.stderr.write(m + "\n")): HookRecord[] {
  const project = opts.project === undefined ? null : resolve(opts.project);
  try {
    return hookDecisions({ ...(opts.since === undefined ? {} : { since: opts.since }), env }).filter((r) => project === null || within(r.project, project));
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
    warn(`rtk discover: ${e.message}; only the decisions not yet stored are used`);
    return spoolDecisions(opts, env);
  }
}

/** The decisions still in the spool (not yet ingested into the store). */
export function spoolDecisions(opts: DecisionQuery, env: Env = process.env): HookRecord[] {
  const out: HookRecord[] = [];
  const project = opts.project === undefined ? null : resolve(opts.project);
  for (const line of fileLines(spoolPath(env))) {
    const r = hookRecord(line);
    if (!r) continue;
    if (opts.since !== undefined && r.time < opts.since) continue;
    if (project !== null && !within(r.project, project)) continue;
    out.push(r);
  }
  return out;
}

/** `path` is `root` or inside it. */
export function within(path: string, root: string): boolean {
  const p = resolve(path);
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

const VERDICTS: ReadonlySet<HookVerdict> = new Set(["rewrite-allow", "rewrite-ask", "allow-typed", "deny", "pass"]);

/** The record a spool line holds, or null when it is not a hook decision. */
export function hookRecord(line: string): HookRecord | null {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof o !== "object" || o === null) return null;
  const r = o as Record<string, unknown>;
  const strOrNull = (v: unknown) => v === null || typeof v === "string";
  if (r["kind"] !== "hook" || typeof r["time"] !== "number" || typeof r["host"] !== "string" || typeof r["command"] !== "string" || typeof r["project"] !== "string") return null;
  if (!strOrNull(r["session"]) || !strOrNull(r["toolUseId"]) || !strOrNull(r["rewritten"])) return null;
  if (!VERDICTS.has(r["verdict"] as HookVerdict) || !Array.isArray(r["reasons"]) || !r["reasons"].every((x) => typeof x === "string")) return null;
  return r as unknown as HookRecord;
}

/** The lines of a file, read in chunks (a spool grows between ingestions); none when it cannot be read. */
function* fileLines(path: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return;
  }
  try {
    const buf = Buffer.alloc(1 << 16);
    let carry: Buffer[] = [];
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      let start = 0;
      for (let nl = buf.indexOf(10, 0); nl >= 0 && nl < n; nl = buf.indexOf(10, start)) {
        carry.push(buf.subarray(start, nl));
        yield Buffer.concat(carry).toString("utf8");
        carry = [];
        start = nl + 1;
      }
      if (start < n) carry.push(Buffer.from(buf.subarray(start, n)));
    }
    if (carry.length) yield Buffer.concat(carry).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
