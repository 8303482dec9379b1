// `rtk [rtk-options] <argv…>`: the same registry as the rewrite maps argv to a
// route; a routed tool runs through its filter, a command a declarative filter
// of the config matches runs through that one, anything else runs as it is. A
// declarative filter never replaces a sensitive route's filter (env, printenv).
import { matchRoute } from "../routes/match.js";
import { registryFor } from "../routing.js";
import { loadConfig, warnConfigProblems, type EffectiveConfig } from "../config/load.js";
import { CHARS_PER_TOKEN, type Limits } from "../filters/budget.js";
import { declarativeFilter, declarativeRoute, selectDeclarative } from "../filters/declarative.js";
import { FILTERS } from "../filters/catalog.js";
import { maskCommand } from "../accounting/mask.js";
import { appendRecord, projectOf, trackingOff } from "../accounting/spool.js";
import type { RunRecord } from "../accounting/types.js";
import { shellQuote } from "../text/quote.js";
import { startExportIfDue } from "../telemetry/gate.js";
import { closest } from "../text/suggest.js";
import { META_COMMANDS, RTK_OPTIONS } from "../routes/rtk-command.js";
import type { Registry } from "../routes/registry.js";
import { runFiltered, runPassthrough, type RunOutput } from "./run.js";

export async function runTool(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let i = 0;
  let raw = env["RTK_RAW"] === "1";
  let track = !trackingOff(env);
  while (i < args.length && RTK_OPTIONS.has(args[i]!)) {
    if (args[i] === "--raw") raw = true;
    if (args[i] === "--no-track") track = false;
    i++;
  }
  // `rtk -- cmd …`: the end of rtk's options, as for any tool.
  if (args[i] === "--") i++;
  const argv = args.slice(i);
  if (!argv.length) {
    process.stderr.write("usage: rtk [--raw] <command> [args…]  (see `rtk help`)\n");
    return 2;
  }
  const run: RunFacts = { started: Date.now(), route: null, config: null, output: null };
  const status = await dispatch(argv, env, raw, run);
  if (track) recordRun(argv, status, env, run);
  return status;
}

/** What the accounting learns of a run as it goes. */
interface RunFacts {
  started: number;
  route: string | null;
  config: EffectiveConfig | null;
  output: RunOutput | null;
}

function recordRun(argv: readonly string[], status: number, env: NodeJS.ProcessEnv, run: RunFacts): void {
  try {
    const config = run.config ?? loadConfig(env, process.cwd());
    if (!config.tracking.enabled) return;
    const o = run.output;
    const record: RunRecord = {
      kind: "run",
      time: Date.now(),
      project: projectOf(process.cwd()),
      // A run no route or filter took is recorded as raw: what it printed is not known (it went straight to the terminal).
      route: run.route ?? "raw",
      command: maskCommand(shellQuote(argv)),
      exitCode: status,
      durationMs: Date.now() - run.started,
      rawBytes: o?.rawBytes ?? 0,
      outBytes: o?.outBytes ?? 0,
      fellBack: o?.fellBack ?? false,
      omitted: o?.omitted ?? 0,
      recallId: o?.recallId ?? null,
      ...(o ? { rawFeatures: o.rawFeatures, outFeatures: o.outFeatures } : {}),
    };
    // A background export, when telemetry is on and one is due: never waited for.
    if (appendRecord(record, env)) startExportIfDue(env, config);
  } catch {
    // Recording never changes the command's output or exit code.
  }
}

async function dispatch(argv: string[], env: NodeJS.ProcessEnv, raw: boolean, run: RunFacts): Promise<number> {
  const registry = registryFor(env);
  const match = matchRoute(argv, registry);
  if (raw || match?.indirect) return runPassthrough(argv, env);
  const builtin = match ? FILTERS.get(match.route.filter) : undefined;

  // Declarative filters from the config: a built-in filter wins unless one is named like its route.
  const config = loadConfig(env, process.cwd());
  run.config = config;
  const onOutput = (o: RunOutput) => void (run.output = o);
  const warn = (m: string) => process.stderr.write(m + "\n");
  warnConfigProblems(config, warn, env);
  const declared = selectDeclarative(config.filters, config.broken, argv.join(" "), match?.route.id ?? null);
  const recall = { enabled: config.recall.enabled, maxEntries: config.recall.max_entries, maxAgeDays: config.recall.max_age_days };
  const limits = limitsFor(config, match?.route.id ?? declared.filter?.name ?? null);
  const passthroughBytes = config.limits.passthrough_tokens * CHARS_PER_TOKEN;
  if (match && builtin && declared.replacesRoute && builtin.sensitive) {
    // Its output holds secrets: only the built-in filter masks them and keeps them out of the recall store.
    const def = [...config.filters, ...config.broken].find((f) => f.name === match.route.id);
    warn(`rtk: the filter "${match.route.id}"${def ? ` at ${def.file}:${def.line}` : ""} is not used: ${match.route.tool} output holds secrets, which only rtk's own filter masks`);
  }
  if (match && builtin && (!declared.replacesRoute || builtin.sensitive)) {
    run.route = match.route.id;
    return runFiltered(builtin, { argv, toolIndex: match.toolIndex, subIndex: match.subIndex, route: match.route }, { env, raw, recall, limits, passthroughBytes, onOutput });
  }
  if (declared.broken) {
    warn(
      `rtk: the filter ${declared.broken.name === null ? "" : JSON.stringify(declared.broken.name) + " "}at ${declared.broken.file}:${declared.broken.line} has errors; the command runs unfiltered`,
    );
    return runPassthrough(argv, env);
  }
  if (!declared.filter) return runPassthrough(argv, env, match ? undefined : (cmd) => nearWord(cmd, registry));
  const filter = declarativeFilter(declared.filter, { listChars: limits.list });
  const route = match?.route ?? declarativeRoute(declared.filter, argv);
  run.route = match?.route.id ?? declared.filter.name ?? route.id;
  return runFiltered(filter, { argv, toolIndex: match?.toolIndex ?? 0, subIndex: match?.subIndex ?? 1, route }, { env, raw, recall, limits, passthroughBytes, onOutput });
}

/** The budgets of a route: `[limits]`, with the route's own list budget when `route_tokens` names it. */
function limitsFor(config: EffectiveConfig, routeId: string | null): Limits {
  const own = routeId === null ? undefined : config.limits.route_tokens[routeId];
  return { list: (own ?? config.limits.list_tokens) * CHARS_PER_TOKEN, content: config.limits.content_chars };
}

/** A mistyped rtk command (`rtk explian`) or routed tool (`rtk gti status`): the nearest of them. */
function nearWord(cmd: string, registry: Registry): string | null {
  const words = [...META_COMMANDS].filter((w) => !w.startsWith("-"));
  return closest(cmd, [...words, ...registry.byTool.keys()]);
}
