// The metrics rtk exports, as data: their names and units are a contract with
// whoever builds dashboards on them (docs/telemetry.md lists the same table, and
// a test checks that it does). Counters are monotonic sums; saved tokens can be
// negative (rtk printed more than the command would have), so theirs is not.
export type Instrument = "counter" | "updowncounter" | "histogram";

export interface MetricSpec {
  name: string;
  instrument: Instrument;
  unit: string;
  description: string;
  /** Data point attributes (resource attributes come on top). */
  attributes: readonly string[];
  /** A histogram's bucket bounds. */
  buckets?: readonly number[];
}

const RUN_ATTRS = ["rtk.route", "rtk.project"] as const;

export const METRICS = {
  runs: { name: "rtk.runs", instrument: "counter", unit: "{run}", description: "rtk <tool> runs (recalls not included)", attributes: RUN_ATTRS },
  rawTokens: { name: "rtk.tokens.raw", instrument: "counter", unit: "{token}", description: "tokens the plain command printed", attributes: RUN_ATTRS },
  printedTokens: { name: "rtk.tokens.printed", instrument: "counter", unit: "{token}", description: "tokens rtk printed", attributes: RUN_ATTRS },
  savedTokens: {
    name: "rtk.tokens.saved",
    instrument: "updowncounter",
    unit: "{token}",
    description: "raw tokens as far as the host would have shown them, less what rtk printed (negative when rtk printed more)",
    attributes: RUN_ATTRS,
  },
  omitted: { name: "rtk.items.omitted", instrument: "counter", unit: "{item}", description: "items the compact form left out (behind a recall handle)", attributes: RUN_ATTRS },
  fallbacks: { name: "rtk.fallbacks", instrument: "counter", unit: "{run}", description: "runs whose filter gave up: the raw output was printed", attributes: RUN_ATTRS },
  recalls: {
    name: "rtk.recalls",
    instrument: "counter",
    unit: "{recall}",
    description: "rtk recall runs: an omission that cost the agent a second call (route: of the run recalled)",
    attributes: RUN_ATTRS,
  },
  hookDecisions: {
    name: "rtk.hook.decisions",
    instrument: "counter",
    unit: "{decision}",
    description: "commands the hooks answered, rewritten or kept, by verdict and reason",
    attributes: ["rtk.host", "rtk.hook.outcome", "rtk.hook.verdict", "rtk.hook.reason", "rtk.project"],
  },
  runDuration: {
    name: "rtk.run.duration",
    instrument: "histogram",
    unit: "ms",
    description: "wall time of an rtk <tool> run, the tool's own time included",
    attributes: ["rtk.route"],
    buckets: [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000],
  },
  hookDuration: {
    name: "rtk.hook.duration",
    instrument: "histogram",
    unit: "ms",
    description: "rewrite latency: from the hook's whole event read to its answer written",
    attributes: ["rtk.host"],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250],
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricKey = keyof typeof METRICS;

/** The instrumentation scope the metrics are sent under. */
export const SCOPE = "rtk";
