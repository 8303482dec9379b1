// `rtk hook <host>`: one event in, the host's answer out. Every path fails open:
// whatever goes wrong, the answer lets the original command run unchanged.
import { isUtf8 } from "node:buffer";
import { rewrite } from "../api.js";
import type { Env } from "../config/hooks.js";
import { tryLoadConfig, type EffectiveConfig } from "../config/load.js";
import { loadRules } from "../permissions/sources.js";
import type { RewriteResult } from "../rewrite/rewrite.js";
import { reachFix, rewriteRunnable } from "./host-shell.js";
import { obj, str, type Host, type HookAnswer } from "./types.js";
import type { Outcome } from "../rewrite/outcome.js";
import { sessionContext } from "../text/markers.js";

export const MAX_EVENT_BYTES = 1024 * 1024;

/** Whether the text holds an `rtk` word (or a path ending in `/rtk`): found by search, in linear time whatever the text. */
export function mentionsRtk(text: string): boolean {
  for (let at = text.indexOf("rtk"); at >= 0; at = text.indexOf("rtk", at + 3)) {
    const before = at === 0 ? " " : text[at - 1]!;
    const after = text[at + 3] ?? " ";
    if (/[\s;&|(`{!/"']/.test(before) && /[\s;&|)`}"']/.test(after)) return true;
  }
  return false;
}

export interface HookRun {
  answer: HookAnswer;
  result: RewriteResult | null;
  /** What was decided about a shell command, for the accounting (absent when the event held none). */
  decision?: { command: string; cwd: string | undefined; outcome: Outcome; event: unknown; config?: EffectiveConfig };
  /** A session's start that rtk's context was added to, for the accounting (its cost). */
  context?: { cwd: string | undefined; event: unknown; config?: EffectiveConfig };
}

/** `host` must have a hook. */
export function runHook(host: Host, input: Uint8Array, env: Env, warn: (msg: string) => void): HookRun {
  const adapter = host.hook!;
  const fail = (why: string): HookRun => {
    warn(`rtk hook ${host.name}: ${why}; the command runs unchanged`);
    return { answer: adapter.passThrough, result: null };
  };
  try {
    if (input.length > MAX_EVENT_BYTES) return fail("event larger than 1 MiB");
    // A replacement character in place of a byte would change the command rtk hands back.
    const utf8 = strictUtf8(input);
    if (utf8 === null) return fail("event is not valid UTF-8");
    const text = utf8.replace(/^\uFEFF+/, "");
    if (!text.trim()) return fail("empty event");
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return fail("event is not valid JSON");
    }
    const start = obj(event);
    if (host.session && start && host.session.is(start)) return sessionStart(host, start, env);
    const decoded = adapter.decode(event, env, warn);
    if (!decoded) return { answer: adapter.passThrough, result: null };
    // A `\ud800` escape decodes to half a character: no shell runs it as typed, and no answer could carry it back exactly.
    if (!wellFormed(decoded.command)) return fail("the command holds a lone surrogate (not valid Unicode)");
    // Read once for the rewrite and for the accounting of the decision.
    const config = tryLoadConfig(env, decoded.cwd ?? process.cwd());
    const result = rewrite(decoded.command, { host: host.name, cwd: decoded.cwd, mode: decoded.mode, env, warn, config });
    if (!result.parse.ok && result.parse.error.limit) {
      // Unread, an agent-typed `rtk` could hide a denied command from the host's rules: padding must not be a way past them.
      if (mentionsRtk(decoded.command)) {
        const { rules } = loadRules(host.rules, decoded.cwd ?? process.cwd(), env, warn);
        if (rules.deny.length || rules.ask.length || rules.gemini?.rules.some((r) => r.decision !== "allow")) {
          const reason = `rtk: the command is too long for rtk to check against your rules (${result.parse.error.message}); run it without the \`rtk\` prefix so that ${host.title} can check it`;
          const deny: Outcome = { kind: "active-deny", reason };
          return { answer: adapter.encode(deny, decoded.ctx), result, decision: { command: decoded.command, cwd: decoded.cwd, outcome: deny, event, config } };
        }
      }
      warn(`rtk hook ${host.name}: ${result.parse.error.message}; the command runs unchanged`);
    }
    let outcome = outcomeOf(result);
    const decided = (answer: HookAnswer): HookRun => ({ answer, result, decision: { command: decoded.command, cwd: decoded.cwd, outcome, event, config } });
    if (outcome.kind === "rewrite") {
      // A rewritten command whose `rtk` the host's shell cannot find (or start) would fail with 127.
      const shell = host.shell ?? "inherited";
      const reach = rewriteRunnable(env, decoded.cwd ?? process.cwd(), shell);
      if (!reach.ok) {
        warn(`rtk hook ${host.name}: no rewrite: ${reach.why}; the command runs unchanged; fix: ${reachFix(shell, env, decoded.cwd ?? process.cwd())}`);
        outcome = { kind: "pass" };
      }
    }
    const answer = adapter.encode(outcome, decoded.ctx);
    // An adapter may leave a rewrite to the host after all (Codex's own rules name the command):
    // what is recorded is what was answered.
    if (outcome.kind === "rewrite" && sameAnswer(answer, adapter.passThrough)) outcome = { kind: "pass" };
    return decided(answer);
  } catch (e) {
    return fail(`internal error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function sameAnswer(a: HookAnswer, b: HookAnswer): boolean {
  return a.stdout === b.stdout && a.exitCode === b.exitCode && (a.stderr ?? "") === (b.stderr ?? "");
}

/** A session's start: rtk's context, unless `hooks.session_context` is off in the config of the session's folder. */
function sessionStart(host: Host, event: Record<string, unknown>, env: Env): HookRun {
  const session = host.session!;
  const cwd = str(event["cwd"]);
  const config = tryLoadConfig(env, cwd ?? process.cwd());
  // A config that cannot be read leaves the default: the context is added.
  if (config && !config.hooks.session_context) return { answer: session.silent, result: null };
  return { answer: session.answer(sessionContext()), result: null, context: { cwd, event, ...(config ? { config } : {}) } };
}

export function outcomeOf(r: RewriteResult): Outcome {
  if (r.verdict === "deny") {
    if (!r.activeDeny) return { kind: "defer-deny" };
    const part = (r.permissionDetail as { parts?: { deny: string | null; denyForm?: string | null }[] } | null)?.parts?.find((p) => p.deny);
    const runs = part?.denyForm ? ` (the command runs \`${part.denyForm}\`)` : "";
    return { kind: "active-deny", reason: `rtk: denied by your rule \`${part?.deny ?? "?"}\`${runs}` };
  }
  if (r.command !== null) return { kind: "rewrite", command: r.command, allow: r.verdict === "allow", ask: r.asked };
  if (r.allowedThroughRtk && r.verdict === "allow") return { kind: "allow", command: r.input };
  return { kind: "pass" };
}

/** The bytes as text, or null when they are not valid UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | null {
  if (!isUtf8(bytes)) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No unpaired surrogate: the string has an exact UTF-8 form. */
export function wellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Watches an event arrive chunk by chunk and says when it is whole: a host may
 * write its event and keep stdin open, and waiting for the end would hold the
 * agent up. Every byte is looked at once: strings and nesting are tracked, so
 * the `}` that closes the object is known without parsing the JSON again.
 */
export class EventEnd {
  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private finished = false;

  /** Feeds the next chunk; true once the top-level object has closed, or once the input cannot be an object (waiting for more would not help). */
  feed(chunk: Uint8Array): boolean {
    if (this.finished) return true;
    let i = 0;
    if (!this.started) {
      // Blanks and byte-order marks may come first.
      while (i < chunk.length && isLeading(chunk[i]!)) i++;
      if (i === chunk.length) return false;
      this.started = true;
      if (chunk[i] !== OPEN_BRACE) return (this.finished = true);
    }
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
      } else if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
      else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --this.depth === 0) return (this.finished = true);
    }
    return false;
  }
}

function isLeading(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf;
}
