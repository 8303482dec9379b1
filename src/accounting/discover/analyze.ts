// The analysis of `rtk discover`: each shell call of the transcripts sorted into
// one of six kinds by rtk's own rewrite and the recorded hook decisions, counted
// per project and overall. A pure function of (calls, decisions): the readers
// and the CLI are its edges.
import type { EffectiveConfig } from "../../config/load.js";
import type { Exclusion } from "../../rewrite/mark.js";
import { rewriteCommand, type RewriteResult } from "../../rewrite/rewrite.js";
import { toolName } from "../../routes/match.js";
import type { Registry } from "../../routes/registry.js";
import type { HookRecord } from "../types.js";
import type { ShellCall } from "./records.js";
import { replayOutput } from "./replay.js";

/**
 * typed: the agent wrote `rtk …`; hook: rtk's hook rewrote it (the decision
 * joined by tool-use id); missed: rtk would rewrite it but it ran raw; kept: a
 * part has a route but a safety rule keeps it raw; no-route: nothing in it has
 * a route; unread: it does not parse.
 */
export type CallKind = "typed" | "hook" | "missed" | "kept" | "no-route" | "unread";

export interface Counts {
  commands: number;
  typed: number;
  hook: number;
  missed: number;
  kept: number;
  noRoute: number;
  unread: number;
  /** Outputs the host cut before the agent saw them. */
  truncated: number;
  /** Characters of output the missed commands showed the agent. */
  missedChars: number;
}

export interface ReplayFigures {
  /** Missed commands whose output went through the filter. */
  replayed: number;
  rawChars: number;
  outChars: number;
}

export interface DiscoverReport {
  totals: Counts;
  /** Calls seen before under the same id (a session copied into another file): counted once. */
  repeated: number;
  projects: (Counts & { project: string })[];
  /** Missed commands by the route that would have taken them, most output first. */
  missed: { route: string; commands: number; outputChars: number; replay?: ReplayFigures }[];
  /** Commands kept raw, by the reason id of their first routed part kept. */
  kept: { reason: string; commands: number }[];
  /** The most frequent unrouted tools (tool and subcommand), what to support next. */
  noRoute: { command: string; commands: number }[];
  hookDecisions: { loaded: number; joined: number };
  replay?: ReplayFigures & {
    /** Missed commands not replayed, and why: the host cut the output, none was recorded, other commands' output is mixed in or a word expands, or no built-in filter. */
    skipped: { truncated: number; noOutput: number; compound: number; noFilter: number };
  };
}

export interface AnalyzeOptions {
  registry: Registry;
  exclusions?: readonly Exclusion[];
  transparentPrefixes?: readonly (readonly string[])[];
  replay?: boolean;
  /** The config a run reads (declarative filters, budgets) for the replay; the defaults without it. */
  config?: EffectiveConfig;
  /** How many unrouted commands to list (default 15). */
  top?: number;
}

// Shell builtins with nothing to compact: they would crowd the list of what to support next.
const BUILTINS = new Set(["cd", "pushd", "popd", "export", "unset", "set", "source", ".", "true", "false", ":", "exit", "echo", "printf", "sleep", "wait", "read", "local", "declare"]);
// Around a routed command, these print nothing: its output is the transcript's output.
const SILENT = new Set(["cd", "export", "unset", "true", ":"]);
// Reasons that are not a safety rule: the part is rtk already, or has no route.
const NOT_SAFETY = new Set(["no-route", "already-rtk", "parse-error", "disabled"]);
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;
const REWRITE_CACHE = 20_000;

export function emptyCounts(): Counts {
  return { commands: 0, typed: 0, hook: 0, missed: 0, kept: 0, noRoute: 0, unread: 0, truncated: 0, missedChars: 0 };
}

/** Accumulates calls one at a time (a transcript's output text need not outlive its call). */
export class Discovery {
  private totals = emptyCounts();
  private projects = new Map<string, Counts>();
  private missed = new Map<string, { commands: number; outputChars: number; replay: ReplayFigures }>();
  private kept = new Map<string, number>();
  private noRoute = new Map<string, number>();
  private byId = new Map<string, HookRecord>();
  private joined = 0;
  private seen = new Set<string>();
  private repeated = 0;
  // Agents run the same few commands again and again: each is read once.
  private rewrites = new Map<string, RewriteResult>();
  private replay = { replayed: 0, rawChars: 0, outChars: 0, skipped: { truncated: 0, noOutput: 0, compound: 0, noFilter: 0 } };

  constructor(
    private readonly decisions: readonly HookRecord[],
    private readonly opts: AnalyzeOptions,
  ) {
    for (const d of decisions) if (d.toolUseId !== null) this.byId.set(d.toolUseId, d);
  }

  /** Counts one call; null when it was counted before. */
  add(call: ShellCall): CallKind | null {
    const key = `${call.source}:${call.id}`;
    if (this.seen.has(key)) {
      this.repeated++;
      return null;
    }
    this.seen.add(key);
    const decision = this.byId.get(call.id);
    if (decision) this.joined++;
    const r = this.rewrite(call.command);
    let kind: CallKind;
    if (r.segments.some((s) => s.reason === "already-rtk")) kind = "typed";
    else if (decision && decision.rewritten !== null && decision.verdict.startsWith("rewrite")) kind = "hook";
    else if (!r.parse.ok) kind = "unread";
    else if (r.command !== null) kind = "missed";
    else if (r.segments.some((s) => s.route !== null && s.reason !== null && !NOT_SAFETY.has(s.reason))) kind = "kept";
    else kind = "no-route";

    const project = this.projects.get(call.project) ?? emptyCounts();
    this.projects.set(call.project, project);
    const outChars = call.output?.length ?? 0;
    for (const c of [this.totals, project]) {
      c.commands++;
      if (call.truncated) c.truncated++;
      if (kind === "missed") c.missedChars += outChars;
      c[KEY[kind]]++;
    }

    if (kind === "missed") {
      const rewritten = r.segments.filter((s) => s.decision === "rewrite");
      const route = rewritten[0]!.route!.id;
      const m = this.missed.get(route) ?? { commands: 0, outputChars: 0, replay: { replayed: 0, rawChars: 0, outChars: 0 } };
      this.missed.set(route, m);
      m.commands++;
      m.outputChars += outChars;
      if (this.opts.replay) this.replayCall(call, r.segments, m.replay);
    } else if (kind === "kept") {
      const reason = r.segments.find((s) => s.route !== null && s.reason !== null && !NOT_SAFETY.has(s.reason))!.reason!;
      this.kept.set(reason, (this.kept.get(reason) ?? 0) + 1);
    } else if (kind === "no-route") {
      const keys = new Set<string>();
      for (const s of r.segments) {
        if (s.reason !== "no-route" || s.command === null) continue;
        const tool = toolName(s.command);
        if (BUILTINS.has(tool)) continue;
        const sub = s.argv[1];
        keys.add(sub && SUBCOMMAND.test(sub) ? `${tool} ${sub}` : tool);
      }
      for (const k of keys) this.noRoute.set(k, (this.noRoute.get(k) ?? 0) + 1);
    }
    return kind;
  }

  private rewrite(command: string): RewriteResult {
    let r = this.rewrites.get(command);
    if (!r) {
      r = rewriteCommand(command, { registry: this.opts.registry, exclusions: this.opts.exclusions ?? [], transparentPrefixes: this.opts.transparentPrefixes ?? [] });
      if (this.rewrites.size >= REWRITE_CACHE) this.rewrites.clear();
      this.rewrites.set(command, r);
    }
    return r;
  }

  private replayCall(call: ShellCall, segments: RewriteResult["segments"], figures: ReplayFigures): void {
    const skipped = this.replay.skipped;
    if (call.output === null) return void skipped.noOutput++;
    if (call.truncated) return void skipped.truncated++;
    const rewritten = segments.filter((s) => s.decision === "rewrite");
    const others = segments.filter((s) => s.decision !== "rewrite");
    const argv = rewritten[0]!.argv;
    if (rewritten.length !== 1 || others.some((s) => s.command === null || !SILENT.has(s.command)) || argv.some((w) => w === null)) return void skipped.compound++;
    const out = replayOutput(argv as string[], call.output, call.exitCode ?? 0, { registry: this.opts.registry, ...(this.opts.config ? { config: this.opts.config } : {}) });
    if (!out.replayed) return void skipped.noFilter++;
    for (const f of [figures, this.replay]) {
      f.replayed++;
      f.rawChars += out.rawChars;
      f.outChars += out.outChars;
    }
  }

  report(): DiscoverReport {
    const report: DiscoverReport = {
      totals: this.totals,
      repeated: this.repeated,
      projects: ranked(this.projects, (c) => [c.commands]).map(([project, c]) => ({ project, ...c })),
      missed: ranked(this.missed, (m) => [m.outputChars, m.commands]).map(([route, m]) => ({
        route,
        commands: m.commands,
        outputChars: m.outputChars,
        ...(this.opts.replay ? { replay: m.replay } : {}),
      })),
      kept: ranked(this.kept, (n) => [n]).map(([reason, commands]) => ({ reason, commands })),
      noRoute: ranked(this.noRoute, (n) => [n])
        .slice(0, this.opts.top ?? 15)
        .map(([command, commands]) => ({ command, commands })),
      hookDecisions: { loaded: this.decisions.length, joined: this.joined },
    };
    if (this.opts.replay) report.replay = this.replay;
    return report;
  }
}

/** The entries by their figures, largest first, then by name: a stable order. */
function ranked<V>(m: ReadonlyMap<string, V>, figures: (v: V) => number[]): [string, V][] {
  return [...m].sort(([ka, a], [kb, b]) => {
    const fa = figures(a);
    const fb = figures(b);
    for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return fb[i]! - fa[i]!;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

const KEY: Record<CallKind, "typed" | "hook" | "missed" | "kept" | "noRoute" | "unread"> = {
  typed: "typed",
  hook: "hook",
  missed: "missed",
  kept: "kept",
  "no-route": "noRoute",
  unread: "unread",
};

/** The report of a set of calls. */
export function analyze(calls: Iterable<ShellCall>, decisions: readonly HookRecord[], opts: AnalyzeOptions): DiscoverReport {
  const d = new Discovery(decisions, opts);
  for (const c of calls) d.add(c);
  return d.report();
}
