// The rewrite as rtk itself runs it: the active registry, the user's config, the
// environment's RTK_DISABLED, and the host's permission rules.
import { hookConfigOf, loadHookConfig, type Env } from "./config/hooks.js";
import type { EffectiveConfig } from "./config/load.js";
import type { Registry } from "./routes/registry.js";
import { registryFor } from "./routing.js";
import { hostPermissions } from "./permissions/host.js";
import { hostNamed } from "./hosts/index.js";
import { engineFor, type Host, type OwnContext } from "./hosts/types.js";
import type { RuleSet } from "./permissions/verdict.js";
import { COMMAND_LIMITS, rewriteCommand, type CommandLimits, type PermissionSource, type RewriteResult } from "./rewrite/rewrite.js";
import type { Segment } from "./rewrite/mark.js";

export interface RewriteCallOptions {
  /** The host whose rules decide the verdict (default: Claude Code's). */
  host?: string;
  /** The folder whose project rules and config apply. */
  cwd?: string;
  /** The host's permission mode (Claude Code's `permission_mode`; for OpenCode, how its plugin hands the rewrite back and for which agent), which changes what it runs unprompted. */
  mode?: string;
  env?: Env;
  /** The config that applies to `cwd`, when the caller has loaded it already. */
  config?: EffectiveConfig;
  /** Where warnings go (a broken config file, an unreadable settings file). */
  warn?: (msg: string) => void;
  registry?: Registry;
  permissions?: PermissionSource;
  /** How much of the command is read (default COMMAND_LIMITS: 64 KiB, 5,000 steps of reading, 2 s of wall time as the last resort); null reads it whatever it costs. */
  limits?: CommandLimits | null;
}

export function rewrite(command: string, opts: RewriteCallOptions = {}): RewriteResult {
  const env = opts.env ?? process.env;
  const warn = opts.warn ?? ((m: string) => process.stderr.write(m + "\n"));
  const disabled = env["RTK_DISABLED"] === "1";
  const host = opts.host ?? "claude";
  const named = hostNamed(host);
  if (!named) throw new UnknownHostError(host);
  const rules = named.rules;
  const cwd = opts.cwd ?? process.cwd();
  const config = disabled ? null : opts.config ? hookConfigOf(opts.config, env, warn) : loadHookConfig(env, warn, cwd);
  const transparentPrefixes = config?.transparentPrefixes ?? [];
  const registry = opts.registry ?? registryFor(env);
  return rewriteCommand(command, {
    registry,
    exclusions: config?.exclusions ?? [],
    transparentPrefixes,
    disabled,
    // Deny and ask rules see what bash runs: through the tools' global options (every family's table, routed or not) and the config's prefixes.
    permissions: opts.permissions ?? hostPermissions(rules, cwd, env, warn, { tools: registry.tools, transparentPrefixes }, engineOf(named, { mode: opts.mode, cwd, env }), opts.mode),
    limits: opts.limits === null ? undefined : (opts.limits ?? COMMAND_LIMITS),
  });
}

/** The host's engine for this event: whether its answer can allow, and what it runs by itself given its rules. */
function engineOf(host: Host, ctx: OwnContext) {
  const engine = host.engine;
  if (!engine || engine.judges?.(ctx.mode) === false) return undefined;
  const own = engine.own;
  return { ...engineFor(engine, ctx.mode), ...(own ? { own: (rules: RuleSet) => own(ctx, rules) } : {}) };
}

export class UnknownHostError extends Error {
  constructor(readonly host: string) {
    super(`unknown host \`${host}\``);
  }
}

/** A segment as data, with stable field names. */
export function segmentJson(s: Segment, src: string) {
  return {
    span: [s.node.span.start, s.node.span.end],
    text: src.slice(s.node.span.start, s.node.span.end),
    command: s.command,
    decision: s.decision,
    reason: s.reason,
    route: s.route?.id ?? null,
  };
}

export function resultJson(r: RewriteResult) {
  return {
    rewritten: r.command,
    held: r.held,
    verdict: r.verdict,
    activeDeny: r.activeDeny,
    exit: r.exitCode,
    segments: r.segments.map((s) => segmentJson(s, r.input)),
  };
}
