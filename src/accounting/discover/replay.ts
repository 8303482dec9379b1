// What rtk's filter would have printed for a recorded output: the filter the
// runtime picks for the argv, fed the transcript's text line by line as the
// runtime feeds it, and the runtime's own choice between the compact form and
// the raw output (never worse, never silent).
import type { EffectiveConfig } from "../../config/load.js";
import { DEFAULT_PASSTHROUGH_TOKENS } from "../../config/schema.js";
import { CHARS_PER_TOKEN } from "../../filters/budget.js";
import { FILTERS } from "../../filters/catalog.js";
import { declarativeFilter, declarativeRoute, selectDeclarative } from "../../filters/declarative.js";
import type { Filter, FilterInput, Limits } from "../../filters/types.js";
import { matchRoute } from "../../routes/match.js";
import type { Registry } from "../../routes/registry.js";
import { chooseOutput } from "../../runtime/choose-output.js";
import { FilterFeed } from "../../runtime/filter-feed.js";
import { LineSplitter, RawLineNumbers } from "../../runtime/line-splitter.js";
import { MAX_RECALL_BYTES } from "../../runtime/recall.js";
import { stripAnsi } from "../../text/ansi.js";

/** A recall handle as long as a real one (7 hex digits): the marker's length counts. */
const REPLAY_RECALL_ID = "0000000";

/** Nothing on the command line exists here: the recorded run's files are not this machine's. */
const NO_FILES = { isFile: () => false, isDirectory: () => false, isStream: () => false };

export type ReplayOutcome = { replayed: true; rawChars: number; outChars: number; compact: boolean } | { replayed: false; why: "no-filter" | "streaming" };

export interface ReplayContext {
  registry: Registry;
  /** The config a run would read: its declarative filters and budgets (none: the defaults). */
  config?: EffectiveConfig;
}

/** The filter `rtk <argv>` runs and its input, as the runtime's dispatch picks them; "raw" when it runs the tool unfiltered. */
function pick(argv: readonly string[], ctx: ReplayContext): { filter: Filter; input: FilterInput; limits?: Limits } | "raw" | null {
  const match = matchRoute(argv, ctx.registry);
  if (match?.indirect) return "raw";
  const builtin = match ? FILTERS.get(match.route.filter) : undefined;
  const config = ctx.config;
  if (!config) return match && builtin ? { filter: builtin, input: { argv, toolIndex: match.toolIndex, subIndex: match.subIndex, route: match.route } } : null;
  const routeId = match?.route.id ?? null;
  const declared = selectDeclarative(config.filters, config.broken, argv.join(" "), routeId);
  const limitId = routeId ?? declared.filter?.name ?? null;
  const own = limitId === null ? undefined : config.limits.route_tokens[limitId];
  const limits: Limits = { list: (own ?? config.limits.list_tokens) * CHARS_PER_TOKEN, content: config.limits.content_chars };
  if (match && builtin && (!declared.replacesRoute || builtin.sensitive)) return { filter: builtin, input: { argv, toolIndex: match.toolIndex, subIndex: match.subIndex, route: match.route }, limits };
  if (declared.broken) return "raw";
  if (!declared.filter) return match ? "raw" : null;
  const route = match?.route ?? declarativeRoute(declared.filter, argv);
  return { filter: declarativeFilter(declared.filter, { listChars: limits.list }), input: { argv, toolIndex: match?.toolIndex ?? 0, subIndex: match?.subIndex ?? 1, route }, limits };
}

export function replayOutput(argv: readonly string[], text: string, exitCode: number, ctx: ReplayContext): ReplayOutcome {
  const picked = pick(argv, ctx);
  if (picked === null) return { replayed: false, why: "no-filter" };
  if (picked === "raw") return { replayed: true, rawChars: text.length, outChars: text.length, compact: false };
  const { filter, input, limits } = picked;
  if (filter.streaming?.(input)) return { replayed: false, why: "streaming" };
  // A filter that hands the tool rtk's own stdio prints the tool's output unchanged.
  if (filter.inherits?.(input, NO_FILES)) return { replayed: true, rawChars: text.length, outChars: text.length, compact: false };
  const form = filter.lineForm?.(input) ?? "terminal";
  // Lines numbered as a run's recall entry numbers them: the markers of dropped lines name their range, as a run's do.
  const numbers = new RawLineNumbers();
  const feed = new FilterFeed(filter, input, form, null, {
    recall: { id: () => REPLAY_RECALL_ID },
    files: NO_FILES,
    ...(limits ? { limits } : {}),
    emit: { out: () => {}, err: () => {} },
    rawLine: () => numbers.current,
  });
  const splitter = new LineSplitter((l, ended, plain, cut) => {
    numbers.line();
    feed.line(0, l, ended, plain, cut);
  });
  const bytes = Buffer.from(text, "utf8");
  numbers.chunk(0, bytes);
  splitter.push(bytes);
  numbers.ending(0);
  splitter.end();
  const verbatim = form === "verbatim";
  const compact = verbatim && splitter.binary ? null : feed.end(exitCode);
  const choice = chooseOutput({
    sensitive: filter.sensitive ?? false,
    streaming: false,
    raw: false,
    failed: feed.failed,
    compact,
    rawBytes: bytes.length,
    verbatim,
    overlong: feed.overlong,
    recallLimit: MAX_RECALL_BYTES,
    passthroughBytes: (ctx.config ? ctx.config.limits.passthrough_tokens : DEFAULT_PASSTHROUGH_TOKENS) * CHARS_PER_TOKEN,
  });
  switch (choice.print) {
    case "compact":
      return { replayed: true, rawChars: text.length, outChars: choice.compact.stdout.length + choice.compact.stderr.length + (choice.compact.before ?? "").length, compact: true };
    case "raw":
      return { replayed: true, rawChars: text.length, outChars: (choice.plain ? stripAnsi(text) : text).length, compact: false };
    default:
      // A sensitive filter that failed prints nothing of the output.
      return { replayed: true, rawChars: text.length, outChars: 0, compact: false };
  }
}
