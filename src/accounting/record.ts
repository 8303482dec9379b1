// The records of the hook path: one line per decision about an agent's command
// (`rtk hook <host>`, `rtk rewrite`), and of `rtk recall` (a recall means an
// omission cost the agent a second call). Written through the spool like runs.
import { tryLoadConfig, type EffectiveConfig } from "../config/load.js";
import type { Env } from "../config/paths.js";
import type { Outcome } from "../rewrite/outcome.js";
import type { RewriteResult } from "../rewrite/rewrite.js";
import { maskCommand } from "./mask.js";
import { appendRecord, projectOf, trackingOff } from "./spool.js";
import type { HookRecord, HookVerdict, RunRecord } from "./types.js";

/** RTK_NO_TRACK=1, or `tracking.enabled = false` in the config that applies to `cwd` (read here unless the caller has it). */
export function tracking(env: Env, cwd: string, config: EffectiveConfig | undefined = tryLoadConfig(env, cwd)): boolean {
  return !trackingOff(env) && config !== undefined && config.tracking.enabled;
}

export function verdictOf(outcome: Outcome): HookVerdict {
  if (outcome.kind === "rewrite") return outcome.allow ? "rewrite-allow" : "rewrite-ask";
  if (outcome.kind === "allow") return "allow-typed";
  if (outcome.kind === "pass") return "pass";
  return "deny";
}

/** Why each part was kept or rewritten. */
export function reasonsOf(result: RewriteResult | null): string[] {
  if (!result) return [];
  if (!result.parse.ok) return [result.parse.error.limit ? `unread-${result.parse.error.limit}` : "unparsed"];
  // A rewrite held back for the host's sake names why in place of "routed".
  const routed = result.held?.reason ?? "routed";
  return result.segments.map((s) => s.reason ?? (s.decision === "rewrite" ? routed : "no-route"));
}

/** The host's session and tool-use ids from its event, under the names hosts use for them. */
export function eventIds(event: unknown): { session: string | null; toolUseId: string | null } {
  const e = (typeof event === "object" && event !== null ? event : {}) as Record<string, unknown>;
  const str = (...keys: string[]) => {
    for (const k of keys) if (typeof e[k] === "string" && e[k]) return e[k] as string;
    return null;
  };
  return { session: str("session_id", "sessionId", "conversation_id", "thread_id"), toolUseId: str("tool_use_id", "toolUseId", "tool_call_id", "toolCallId", "call_id") };
}

/** What a hook knows of the event it answers. */
interface HookEvent {
  host: string;
  cwd: string | undefined;
  event: unknown;
  /** The config the hook's rewrite read, when it could. */
  config?: EffectiveConfig;
}

export function recordHook(env: Env, d: HookEvent & { command: string; outcome: Outcome; result: RewriteResult | null; durationMs?: number }): void {
  appendHook(env, d, () => ({
    command: maskCommand(d.command),
    rewritten: d.outcome.kind === "rewrite" ? maskCommand(d.outcome.command) : null,
    verdict: verdictOf(d.outcome),
    reasons: reasonsOf(d.result),
    ...(d.durationMs !== undefined ? { durationMs: Math.round(d.durationMs * 1000) / 1000 } : {}),
  }));
}

/** rtk's context added to a session at its start: its cost, which `rtk gain` takes from the savings. */
export function recordContext(env: Env, d: HookEvent): void {
  appendHook(env, d, () => ({ command: "", rewritten: null, verdict: "context", reasons: ["session-context"] }));
}

/** Appends a hook record of `d` where tracking is on; `fields` are made only then. */
function appendHook(env: Env, d: HookEvent, fields: () => Pick<HookRecord, "command" | "rewritten" | "verdict" | "reasons" | "durationMs">): void {
  try {
    const cwd = d.cwd ?? process.cwd();
    if (!tracking(env, cwd, d.config)) return;
    const rec: HookRecord = { kind: "hook", time: Date.now(), host: d.host, ...eventIds(d.event), project: projectOf(cwd), ...fields() };
    appendRecord(rec, env);
  } catch {
    // The hook path never fails because of its accounting.
  }
}

/** `rtk recall <id>`: recorded as a run of the route `recall`. */
export function recordRecall(env: Env, args: readonly string[], id: string | null, exitCode: number, started: number): void {
  try {
    if (!tracking(env, process.cwd())) return;
    const rec: RunRecord = {
      kind: "run",
      time: Date.now(),
      project: projectOf(process.cwd()),
      route: "recall",
      command: maskCommand(["rtk", "recall", ...args].join(" ")),
      exitCode,
      durationMs: Date.now() - started,
      rawBytes: 0,
      outBytes: 0,
      fellBack: false,
      omitted: 0,
      recallId: id,
    };
    appendRecord(rec, env);
  } catch {
    // as above
  }
}
