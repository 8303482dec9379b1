// Whether Codex runs rtk's hook. Codex runs a hook from a user or project
// hooks.json only once the user has trusted it (its TUI's `/hooks` review):
// the trust is `[hooks.state."<hooks.json path>:<event>:<group>:<hook>"]`
// (`pre_tool_use`, `session_start`)
// in $CODEX_HOME/config.toml, with `trusted_hash` the hook's hash when it was
// trusted. A hook whose hash has changed since (rtk init rewrote it, with
// another path of rtk, say) is skipped again until trusted again, silently.
// The hash is Codex's (0.171): SHA-256 of the canonical JSON (keys sorted, no
// blanks) of the event name and the matcher group holding only that hook,
// normalised as Codex reads it (the timeout made explicit, unset fields absent).
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { Env } from "../config/hooks.js";
import { isOurCommand } from "./install.js";

export type TrustStatus = "trusted" | "untrusted" | "modified" | "disabled";

export interface HookTrust {
  key: string;
  status: TrustStatus;
  /** The hash Codex computes for the hook as it is now. */
  hash: string;
}

/** Codex's default hook timeout, in seconds. */
const DEFAULT_TIMEOUT = 600;

export function codexHome(env: Env): string {
  return env["CODEX_HOME"] || join(env["HOME"] || "", ".codex");
}

const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  const r = record(v);
  if (!r) return v;
  return Object.fromEntries(
    Object.keys(r)
      .sort()
      .map((k) => [k, canonical(r[k])]),
  );
}

/** The events rtk installs a hook for, as hooks.json names them and as Codex's keys and hashes do. */
const EVENTS = [
  ["PreToolUse", "pre_tool_use"],
  ["SessionStart", "session_start"],
] as const;

/** The hash Codex keeps trust by, for one command hook of a matcher group of an event (`pre_tool_use`). */
export function codexHookHash(matcher: string | undefined, hook: Record<string, unknown>, event = "pre_tool_use"): string {
  const timeout = typeof hook["timeout"] === "number" ? hook["timeout"] : typeof hook["timeoutSec"] === "number" ? hook["timeoutSec"] : DEFAULT_TIMEOUT;
  const normalised: Record<string, unknown> = { type: "command", command: hook["command"], timeout: Math.max(1, Math.trunc(timeout as number)), async: hook["async"] === true };
  if (typeof hook["statusMessage"] === "string") normalised["statusMessage"] = hook["statusMessage"];
  const identity: Record<string, unknown> = { event_name: event, hooks: [normalised] };
  if (matcher !== undefined) identity["matcher"] = matcher;
  return (
    "sha256:" +
    createHash("sha256")
      .update(JSON.stringify(canonical(identity)))
      .digest("hex")
  );
}

/** The user's hook states, by key: Codex reads them from $CODEX_HOME/config.toml only. */
function hookStates(env: Env): Map<string, { trusted?: string; enabled?: boolean }> {
  const states = new Map<string, { trusted?: string; enabled?: boolean }>();
  let doc: Record<string, unknown> | null;
  try {
    doc = record(parseToml(readFileSync(join(codexHome(env), "config.toml"), "utf8")));
  } catch {
    return states;
  }
  const table = record(record(doc?.["hooks"])?.["state"]);
  for (const [key, value] of Object.entries(table ?? {})) {
    const v = record(value);
    if (!v) continue;
    states.set(key.trim(), {
      ...(typeof v["trusted_hash"] === "string" ? { trusted: v["trusted_hash"] } : {}),
      ...(typeof v["enabled"] === "boolean" ? { enabled: v["enabled"] } : {}),
    });
  }
  return states;
}

/** Codex's trust of each rtk hook in `hooksFile` (a hooks.json), as its `/hooks` review would show it. */
export function codexHookTrust(hooksFile: string, env: Env): HookTrust[] {
  let doc: Record<string, unknown> | null;
  try {
    doc = record(JSON.parse(readFileSync(hooksFile, "utf8").replace(/^\uFEFF/, "")));
  } catch {
    return [];
  }
  const states = hookStates(env);
  // Codex names a file by its path as it found it; a CODEX_HOME through a symlink may be named either way.
  const names = [hooksFile];
  try {
    const real = realpathSync(hooksFile);
    if (real !== hooksFile) names.push(real);
  } catch {
    // read above: it exists
  }
  const out: HookTrust[] = [];
  for (const [name, event] of EVENTS) {
    const groups = record(doc?.["hooks"])?.[name];
    if (Array.isArray(groups)) out.push(...trustOf(groups, event, names, states));
  }
  return out;
}

function trustOf(groups: unknown[], event: string, names: readonly string[], states: ReturnType<typeof hookStates>): HookTrust[] {
  const out: HookTrust[] = [];
  groups.forEach((g, gi) => {
    const group = record(g);
    const hooks = group?.["hooks"];
    if (!Array.isArray(hooks)) return;
    const matcher = typeof group!["matcher"] === "string" ? (group!["matcher"] as string) : undefined;
    hooks.forEach((h, hi) => {
      const hook = record(h);
      if (!hook || hook["type"] !== "command" || typeof hook["command"] !== "string" || !isOurCommand(hook["command"], "codex")) return;
      const hash = codexHookHash(matcher, hook, event);
      const keys = names.map((n) => `${n}:${event}:${gi}:${hi}`);
      const state = keys.map((k) => states.get(k)).find((s) => s !== undefined);
      const status: TrustStatus = state?.enabled === false ? "disabled" : state?.trusted === undefined ? "untrusted" : state.trusted === hash ? "trusted" : "modified";
      out.push({ key: keys[0]!, status, hash });
    });
  });
  return out;
}
