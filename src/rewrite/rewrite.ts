// The rewrite pipeline: parse → classify → mark → edits → print, and the
// verdict of the host's rules on the original command. Pure but for the clock
// its last-resort time limit reads: everything it needs (registry, config,
// environment flag, permission source, limits) is passed in.
import { Budget, parse, type ParseError } from "../../grammar/parse.js";
import type * as A from "../ast/nodes.js";
import { applyInsertions, type Insertion } from "../printer/lossless.js";
import type { Registry } from "../routes/registry.js";
import { classify } from "./classify.js";
import { inputFacts, type InputFacts } from "./facts.js";
import { longerThan, sizeText, type CommandLimits } from "./limits.js";
import { markUnsafe, type Exclusion, type Segment } from "./mark.js";

export { COMMAND_LIMITS, type CommandLimits } from "./limits.js";

export type Verdict = "allow" | "ask" | "deny" | "default";
export type ExitCode = 0 | 1 | 2 | 3;

/** What the host's rules say about the original command. */
export interface VerdictResult {
  verdict: Verdict;
  /** A deny the host's own rules cannot see (the agent typed `rtk` itself): rtk must deny actively. */
  activeDeny?: boolean;
  /** An ask rule matched (rather than the command being unattestable or matching no rule). */
  asked?: boolean;
  /** The allow was earned by a command the agent typed behind `rtk` (the host's rules and own list judge what rtk runs). */
  throughRtk?: boolean;
  /** Details for explain and --json (per-part matches); shape owned by the permission source. */
  detail?: unknown;
  /**
   * For a host that judges the command it is handed back: why `rewritten` must
   * not be handed back (left as typed instead), or null when it may.
   */
  hold?: (rewritten: string) => HeldRewrite | null;
}

/** Why a rewrite that exists is not handed back: the host would judge it less strictly, or ask where it would not have. */
export interface HeldRewrite {
  reason: string;
  /** The rule involved, when one is. */
  rule?: string;
}

/** The host's verdict on a parsed command; `facts` are the pipeline's own, so they are not computed twice. */
export type PermissionSource = (script: A.Script, src: string, facts: InputFacts) => VerdictResult;

export const NO_RULES: PermissionSource = () => ({ verdict: "default" });

export interface RewriteOptions {
  registry: Registry;
  /** None: the command is read whatever it costs. */
  limits?: CommandLimits;
  exclusions?: readonly Exclusion[];
  transparentPrefixes?: readonly (readonly string[])[];
  /** RTK_DISABLED=1 in rtk's own environment. */
  disabled?: boolean;
  permissions?: PermissionSource;
}

export interface RewriteResult {
  input: string;
  parse: { ok: true } | { ok: false; error: ParseError };
  /** The rewritten command, or null when nothing changes. */
  command: string | null;
  verdict: Verdict;
  activeDeny: boolean;
  /** The verdict is ask because one of the host's ask rules matched. */
  asked: boolean;
  /** The verdict is allow only because a command the agent typed behind `rtk` is one the host would allow: the host must be told. */
  allowedThroughRtk: boolean;
  permissionDetail: unknown;
  exitCode: ExitCode;
  segments: Segment[];
  /** Why the whole input is not attestable, if it is not. */
  unattestable: { at: number; why: string } | null;
  /** A rewrite that exists but is not handed back (`command` is then null), and why. */
  held: (HeldRewrite & { command: string }) | null;
}

export function rewriteCommand(src: string, opts: RewriteOptions): RewriteResult {
  const limits = opts.limits;
  if (limits && longerThan(src, limits.maxBytes)) {
    return unread(src, { offset: 0, line: 1, column: 1, message: `command longer than ${sizeText(limits.maxBytes)}: not read`, limit: "length" });
  }
  const budget = limits ? Budget.of(limits.timeMs, limits.steps) : undefined;
  const parsed = parse(src, { budget });
  if (!parsed.ok) return unread(src, parsed.error);
  const script = parsed.script;
  const facts = inputFacts(script);
  const classified = classify(script, { registry: opts.registry, transparentPrefixes: opts.transparentPrefixes ?? [] });
  const segments = markUnsafe(classified, facts, { disabled: opts.disabled ?? false, exclusions: opts.exclusions ?? [] });
  // The permission pass is the last and the costliest: it does not start late.
  if (budget?.expired()) {
    return unread(src, { offset: 0, line: 1, column: 1, message: budget.reason(), limit: "time" });
  }
  const insertions: Insertion[] = segments.filter((s) => s.decision === "rewrite").map((s) => ({ offset: s.insertAt, text: "rtk " }));
  const printed = insertions.length ? applyInsertions(src, insertions) : src;
  const { verdict, detail, activeDeny, asked, hold, throughRtk } = (opts.permissions ?? NO_RULES)(script, src, facts);
  const why = printed !== src && verdict !== "deny" ? (hold?.(printed) ?? null) : null;
  const command = printed === src || why ? null : printed;
  return {
    input: src,
    parse: { ok: true },
    command,
    held: why ? { ...why, command: printed } : null,
    verdict,
    activeDeny: verdict === "deny" && activeDeny === true,
    asked: verdict === "ask" && asked === true,
    allowedThroughRtk: verdict === "allow" && throughRtk === true,
    permissionDetail: detail ?? null,
    exitCode: exitCodeOf(command, verdict),
    segments,
    unattestable: facts.unattestable,
  };
}

/** A command rtk did not read (a parse error, or a limit): nothing rewritten, no verdict of its own. */
function unread(src: string, error: ParseError): RewriteResult {
  return {
    input: src,
    parse: { ok: false, error },
    command: null,
    held: null,
    verdict: "default",
    activeDeny: false,
    asked: false,
    allowedThroughRtk: false,
    permissionDetail: null,
    exitCode: 1,
    segments: [],
    unattestable: null,
  };
}

/** The `rtk rewrite` exit-code contract. */
export function exitCodeOf(command: string | null, verdict: Verdict): ExitCode {
  if (verdict === "deny") return 2;
  if (command === null) return 1;
  return verdict === "allow" ? 0 : 3;
}
