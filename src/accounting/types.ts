// What rtk records about its own work (spec/tracking.md): one record per runtime run
// and one per hook decision. Both are written as one JSON line to the spool on the
// hot paths and read back by the reports.

/** A `rtk <tool> …` run. Sizes are of what the plain command printed (raw) and what rtk printed (out). */
export interface RunRecord {
  kind: "run";
  /** Milliseconds since the epoch, when the run ended. */
  time: number;
  /** Git top level of the cwd, else the cwd. */
  project: string;
  /** The route's id (`git.status`), or the filter id when no route matched. */
  route: string;
  /** The argv, shell-quoted, with secret-looking values masked. */
  command: string;
  exitCode: number;
  durationMs: number;
  rawBytes: number;
  outBytes: number;
  /** The filter gave up and the raw output was printed. */
  fellBack: boolean;
  /** Items the compact form left out (lines, files, tests …), as the filter counted them. */
  omitted: number;
  recallId: string | null;
  /** Features of the raw and the printed output (accounting/features.ts), for the reports' token counts. */
  rawFeatures?: number[];
  outFeatures?: number[];
}

/**
 * How the hook answered: rewritten and allowed, rewritten and left to the host
 * to ask, the command as typed allowed (an agent-typed `rtk` before a command
 * the host allows), denied, or left alone; or, for a session's start, rtk's
 * context added to the session (`context`: no command, its cost counted by
 * `rtk gain`).
 */
export type HookVerdict = "rewrite-allow" | "rewrite-ask" | "allow-typed" | "deny" | "pass" | "context";

/** One answer of `rtk hook <host>` (or `rtk rewrite`, host `cli`). */
export interface HookRecord {
  kind: "hook";
  time: number;
  host: string;
  /** The host's session and tool-use ids, when its event carries them. */
  session: string | null;
  toolUseId: string | null;
  project: string;
  /** The command as the agent wrote it, secrets masked. */
  command: string;
  /** The command handed back, or null when it was left as written. */
  rewritten: string | null;
  verdict: HookVerdict;
  /** Why each part was kept or rewritten (reason ids of src/rewrite/reasons.ts). */
  reasons: string[];
  /** Milliseconds from the whole command read to the answer given (absent in older records). */
  durationMs?: number;
}

export type HistoryRecord = RunRecord | HookRecord;
