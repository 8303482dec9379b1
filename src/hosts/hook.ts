// `rtk hook <host>`: one event in, the host's answer out. Every path fails open:
// whatever goes wrong, the answer lets the original command run unchanged.
import { rewrite } from "../api.js";
import type { Env } from "../config/hooks.js";
import type { RewriteResult } from "../rewrite/rewrite.js";
import { ON_PATH_FIX, rewriteRunnable } from "./on-path.js";
import type { HookAdapter, HookAnswer, Outcome } from "./types.js";

export const MAX_EVENT_BYTES = 1024 * 1024;

export interface HookRun {
  answer: HookAnswer;
  result: RewriteResult | null;
}

export function runHook(adapter: HookAdapter<unknown>, input: string, env: Env, warn: (msg: string) => void): HookRun {
  const fail = (why: string): HookRun => {
    warn(`rtk hook ${adapter.name}: ${why}; the command runs unchanged`);
    return { answer: adapter.passThrough, result: null };
  };
  try {
    if (Buffer.byteLength(input, "utf8") > MAX_EVENT_BYTES) return fail("event larger than 1 MiB");
    const text = input.replace(/^\uFEFF+/, "");
    if (!text.trim()) return fail("empty event");
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return fail("event is not valid JSON");
    }
    const decoded = adapter.decode(event, env);
    if (!decoded) return { answer: adapter.passThrough, result: null };
    const result = rewrite(decoded.command, { host: adapter.name, cwd: decoded.cwd, env, warn });
    let outcome = outcomeOf(result);
    if (outcome.kind === "rewrite") {
      // A rewritten command whose `rtk` the shell cannot find would fail with 127.
      const reach = rewriteRunnable(env, decoded.cwd ?? process.cwd());
      if (!reach.ok) {
        warn(`rtk hook ${adapter.name}: no rewrite: ${reach.why}; the command runs unchanged; fix: ${ON_PATH_FIX}`);
        outcome = { kind: "pass" };
      }
    }
    return { answer: adapter.encode(outcome, decoded.ctx), result };
  } catch (e) {
    return fail(`internal error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function outcomeOf(r: RewriteResult): Outcome {
  if (r.verdict === "deny") {
    if (!r.activeDeny) return { kind: "defer-deny" };
    const rule = (r.permissionDetail as { parts?: { deny: string | null }[] } | null)?.parts?.find((p) => p.deny)?.deny;
    return { kind: "active-deny", reason: `rtk: denied by your rule \`${rule ?? "?"}\` (the \`rtk\` prefix does not change what the command runs)` };
  }
  if (r.command !== null) return { kind: "rewrite", command: r.command, allow: r.verdict === "allow" };
  return { kind: "pass" };
}
