// `rtk gain`: what rtk saved, from the history store (spec/tracking.md). The
// spool is ingested first; the figures come from accounting/report.ts, and this
// file only prints them: a text report, a bar chart, JSON, CSV or a page.
import kleur from "kleur";
import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { renderPage } from "../accounting/page.js";
import { byPeriod, byRoute, failures, history, hookCoverage, routeSums, sessionContextCost, tornLines, totals, type Period, type Totals } from "../accounting/report.js";
import { projectOf } from "../accounting/spool.js";
import { configuredDatabase, ingest, openStore, storeError, StoreError, type Filter, type Store } from "../accounting/store.js";
import { loadConfig } from "../config/load.js";
import { shownUrl, telemetrySettings } from "../telemetry/settings.js";
import { VERSION } from "../version.js";
import { requireCached } from "./code-cache.js";
import { usageError } from "./help.js";
import { unknownWord } from "../text/suggest.js";

const FLAGS = ["--daily", "--weekly", "--monthly", "--history", "--project", "--since", "--graph", "--failures", "--json", "--csv", "--html", "--export", "--help"];

interface GainArgs {
  period: Period | null;
  history: number | null;
  project: string | null;
  since: number | null;
  graph: boolean;
  failures: boolean;
  format: "text" | "json" | "csv" | "html";
  /** The page's file (absolute), with --html. */
  html: string | null;
  /** `--export otlp`: send the records not yet sent to the OpenTelemetry collector (docs/telemetry.md). */
  export: "otlp" | null;
  /** Started by a run (`--background`): quiet, and no wait for a busy export. */
  background: boolean;
}

/** The options, or a usage problem. `--history` and `--project` take an optional value. */
export function parseGainArgs(args: readonly string[], cwd: string, now = Date.now()): GainArgs | string {
  const g: GainArgs = { period: null, history: null, project: null, since: null, graph: false, failures: false, format: "text", html: null, export: null, background: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : undefined;
    const next = args[i + 1];
    const optional = (): string | undefined => {
      if (inline !== undefined) return inline;
      if (next !== undefined && !next.startsWith("-")) {
        i++;
        return next;
      }
      return undefined;
    };
    switch (name) {
      case "--daily":
      case "--weekly":
      case "--monthly":
        if (g.period && g.period !== name.slice(2)) return `one of --daily, --weekly, --monthly at a time`;
        g.period = name.slice(2) as Period;
        break;
      case "--history": {
        const v = optional();
        if (v !== undefined && !/^[1-9]\d*$/.test(v)) return `--history takes a number of runs, not \`${v}\``;
        g.history = v === undefined ? 20 : Number(v);
        break;
      }
      case "--project": {
        const v = optional();
        g.project = v === undefined ? projectOf(cwd) : resolve(cwd, v);
        break;
      }
      case "--since": {
        const v = inline ?? (next !== undefined ? (i++, next) : undefined);
        if (v === undefined) return "--since needs a date (YYYY-MM-DD, or 7d for the last seven days)";
        const t = parseSince(v, now);
        if (t === null) return `--since takes a date (YYYY-MM-DD, an ISO time, or Nd for the last N days), not \`${v}\``;
        g.since = t;
        break;
      }
      case "--graph":
        g.graph = true;
        break;
      case "--failures":
        g.failures = true;
        break;
      case "--json":
      case "--csv":
      case "--html": {
        if (g.format !== "text") return "one of --json, --csv, --html at a time";
        g.format = name.slice(2) as GainArgs["format"];
        if (name !== "--html") break;
        const v = inline ?? (next !== undefined ? (i++, next) : undefined);
        if (v === undefined || v === "") return "--html needs the file to write the page to";
        if (v === "-") return "--html writes a file, not stdout: give it a file name (`rtk gain --html gain.html`)";
        g.html = resolve(cwd, v);
        break;
      }
      case "--export": {
        const v = inline ?? (next !== undefined ? (i++, next) : undefined);
        if (v !== "otlp") return `--export takes \`otlp\` (the OpenTelemetry collector telemetry is set up for)${v === undefined ? "" : `, not \`${v}\``}`;
        g.export = "otlp";
        break;
      }
      case "--background":
        g.background = true;
        break;
      default:
        return a.startsWith("-") ? unknownWord("option", name, FLAGS) : `unexpected argument \`${a}\``;
    }
  }
  return g;
}

/** `2026-12-01` (local midnight), an ISO time, or `7d` (the last seven days). */
export function parseSince(v: string, now: number): number | null {
  const days = /^(\d+)d$/.exec(v);
  if (days) return now - Number(days[1]) * 86_400_000;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return d.getMonth() === Number(day[2]) - 1 && d.getDate() === Number(day[3]) ? d.getTime() : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v)) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

export function gainCli(args: string[], env: NodeJS.ProcessEnv = process.env): number | Promise<number> {
  const parsed = parseGainArgs(args, process.cwd());
  if (typeof parsed === "string") return usageError("gain", parsed);
  if (parsed.background && parsed.export === null) return usageError("gain", "--background goes with --export otlp");
  if (parsed.export) return exportCli(parsed.background, env);
  let store: Store;
  try {
    store = openStore(env, configuredDatabase(env));
  } catch (e) {
    return storeFailure(e);
  }
  try {
    const ingested = ingest(store, env);
    const filter: Filter = { ...(parsed.since !== null ? { since: parsed.since } : {}), ...(parsed.project !== null ? { project: parsed.project } : {}) };
    const data = gather(store, filter, parsed);
    if (parsed.html !== null) return writePage(parsed.html, data, parsed, filter);
    process.stdout.write(parsed.format === "json" ? json(data, filter, ingested.torn) : parsed.format === "csv" ? csv(data, parsed) : text(data, parsed, filter));
    return 0;
  } catch (e) {
    return storeFailure(storeError(e, store.path));
  } finally {
    try {
      store.close();
    } catch {
      // closing cannot make it worse
    }
  }
}

/** `rtk gain --export otlp`: the records not yet sent, in batches, to the collector; only with telemetry on. */
async function exportCli(background: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  const say = (m: string) => void (background ? undefined : process.stderr.write(`rtk gain: ${m}\n`));
  let settings;
  try {
    settings = telemetrySettings(loadConfig(env, process.cwd()), env, VERSION);
  } catch (e) {
    say(`cannot read the config: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  if (!settings.enabled) {
    say("telemetry is off, so nothing is sent: RTK_TELEMETRY=1 or `telemetry.enabled = true` in the user's config turns it on (docs/telemetry.md)");
    return background ? 0 : 1;
  }
  if (settings.problem) {
    say(`telemetry is on but nothing can be sent: ${settings.problem}`);
    return 1;
  }
  const bundle = join(__dirname, "rtk-otel.cjs");
  const { exportOtlp } = requireCached(bundle, null) as typeof import("../telemetry/export.js");
  const database = configuredDatabase(env);
  const r = await exportOtlp({
    env,
    settings,
    version: VERSION,
    background,
    open: (fill) => {
      const store = openStore(env, database);
      try {
        if (fill) ingest(store, env);
      } catch (e) {
        store.close();
        throw e;
      }
      return store;
    },
  });
  const where = shownUrl(settings.url);
  if (r.status === "busy") {
    say("another export is running; try again when it is done");
    return background ? 0 : 1;
  }
  if (r.status === "failed") {
    say(`sent ${int(r.records)} records in ${int(r.batches)} batches to ${where}, then failed: ${r.error}; ${int(r.left)} records wait for the next export`);
    return 1;
  }
  if (!background) process.stdout.write(`rtk gain: sent ${int(r.records)} records in ${int(r.batches)} batches to ${where}${r.left ? `; ${int(r.left)} wait for the next export` : ""}\n`);
  return 0;
}

function storeFailure(e: unknown): number {
  if (!(e instanceof StoreError)) throw e;
  process.stderr.write(`rtk gain: ${e.message}\n`);
  return 1;
}

type Data = ReturnType<typeof gather>;

function gather(store: Store, filter: Filter, g: GainArgs) {
  const sums = routeSums(store, filter);
  return {
    totals: totals(store, filter, sums),
    routes: byRoute(store, filter, sums),
    periods: g.period || g.graph || g.html !== null ? byPeriod(store, filter, g.period ?? "daily") : null,
    hooks: hookCoverage(store, filter),
    context: sessionContextCost(store, filter),
    history: g.history !== null || g.html !== null ? history(store, filter, g.history ?? 20) : null,
    failures: g.failures ? failures(store, filter) : null,
    torn: tornLines(store),
    driver: store.db.driver,
  };
}

/** 1,234,567: by hand, as toLocaleString's first call loads the locale data (tens of ms). */
const int = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
/** `1 run`, `3 runs`. */
const runs = (n: number) => `${int(n)} ${n === 1 ? "run" : "runs"}`;
const pct = (n: number) => `${n.toFixed(1)}%`;

function table(head: readonly string[], rows: readonly (readonly string[])[], leftCols = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i < leftCols ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n") + "\n";
}

const TOTAL_HEAD = ["runs", "raw tokens", "printed", "saved", "saved %", "omitted", "recalls"];
const totalCells = (t: Totals) => [int(t.runs), int(t.rawTokens), int(t.outTokens), int(t.savedTokens), pct(t.savedPct), int(t.omitted), int(t.recalls)];

function text(d: Data, g: GainArgs, filter: Filter): string {
  kleur.enabled = Boolean(process.stdout.isTTY) && !process.env["NO_COLOR"];
  const t = d.totals;
  const scope = scopeOf(filter);
  const out: string[] = [];
  out.push(kleur.bold(`rtk gain${scope ? ` (${scope})` : ""}`));
  const c = d.context;
  if (!t.runs && !t.recalls && !c.sessions) {
    out.push("no runs recorded yet: `rtk <tool> …` runs are recorded as they happen (RTK_NO_TRACK=1 or tracking.enabled = false turns it off)");
    return out.join("\n") + "\n";
  }
  out.push(
    `commands: ${int(t.runs)}   tokens: ${int(t.rawTokens)} raw → ${int(t.outTokens)} printed   saved: ${colourSaved(t.savedTokens, int(t.savedTokens))} (${pct(t.savedPct)})`,
    `bytes: ${int(t.rawBytes)} raw → ${int(t.outBytes)} printed   items omitted: ${int(t.omitted)}   recalls: ${int(t.recalls)}   raw fallbacks: ${int(t.fellBack)}`,
  );
  // What the agent was told about rtk is a cost of the savings.
  if (c.sessions) {
    const net = t.savedTokens - c.tokens;
    out.push(`session context: ${int(c.sessions)} session${c.sessions === 1 ? "" : "s"} × ${int(c.tokensPerSession)} tokens = ${int(c.tokens)}   saved net of it: ${colourSaved(net, int(net))}`);
  }
  if (t.runs) out.push(`raw tokens counted exactly: ${runs(t.exactRuns)} (their raw output still in the recall store), estimated: ${int(t.runs - t.exactRuns)}`);
  if (d.torn) out.push(`torn spool lines skipped: ${int(d.torn)}`);
  out.push("");
  if (d.periods && g.period)
    out.push(
      table(
        [g.period === "weekly" ? "week of" : g.period === "monthly" ? "month" : "day", ...TOTAL_HEAD],
        d.periods.map((p) => [p.period, ...totalCells(p)]),
      ),
    );
  else if (!g.history && !g.failures)
    out.push(
      table(
        ["route", ...TOTAL_HEAD],
        d.routes.map((r) => [r.route, ...totalCells(r)]),
      ),
    );
  if (d.periods && g.graph) out.push(graph(d.periods.map((p) => [p.period, p.savedTokens])));
  if (d.history)
    out.push(
      table(
        ["time", "route", "exit", "raw", "printed", "saved", "command"],
        d.history.map((h) => [
          new Date(h.time).toISOString().slice(0, 19).replace("T", " "),
          h.route,
          String(h.exitCode),
          int(h.rawTokens),
          int(h.outTokens),
          h.fellBack ? "raw" : int(h.savedTokens),
          h.command,
        ]),
        2,
      ),
    );
  if (d.failures)
    out.push(
      d.failures.length
        ? table(
            ["route", "runs", "fell back", "%", "non-zero exit"],
            d.failures.map((f) => [f.route, int(f.runs), int(f.fellBack), pct(f.pct), int(f.nonZeroExit)]),
          )
        : "no raw fallbacks\n",
    );
  return out.join("\n");
}

function scopeOf(filter: Filter): string {
  return [filter.project ? `project ${filter.project}` : "", filter.since !== undefined ? `since ${new Date(filter.since).toISOString().slice(0, 16).replace("T", " ")}` : ""]
    .filter(Boolean)
    .join(", ");
}

/** The page goes to a temporary file beside its place, renamed over it once whole: never a half-written page. */
function writePage(file: string, d: Data, g: GainArgs, filter: Filter): number {
  const page = renderPage({
    totals: d.totals,
    routes: d.routes,
    periods: d.periods ?? [],
    period: g.period ?? "daily",
    hooks: d.hooks,
    context: d.context,
    history: d.history ?? [],
    scope: scopeOf(filter),
    generated: Date.now(),
  });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, page, { flag: "wx", mode: 0o600 });
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never made
    }
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such folder" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EISDIR" ? "it is a folder" : e instanceof Error ? e.message : String(e);
    process.stderr.write(`rtk gain: cannot write the page to ${file}: ${why}\n`);
    return 1;
  }
  process.stdout.write(`rtk gain: wrote ${file} (${runs(d.totals.runs)}, ${int(d.totals.savedTokens)} tokens saved)\n`);
  return 0;
}

function colourSaved(n: number, s: string): string {
  return n < 0 ? kleur.red(s) : kleur.green(s);
}

/** A horizontal bar per period, scaled to the largest saving; a negative one is drawn leftwards in red. */
function graph(rows: readonly (readonly [string, number])[]): string {
  const width = 40;
  const max = Math.max(1, ...rows.map(([, v]) => Math.abs(v)));
  const label = Math.max(...rows.map(([p]) => p.length));
  return (
    rows
      .map(([p, v]) => {
        const n = Math.round((Math.abs(v) / max) * width);
        const bar = v < 0 ? kleur.red("-".repeat(Math.max(n, 1))) : kleur.green("█".repeat(n));
        return `${p.padEnd(label)}  ${bar} ${int(v)}`;
      })
      .join("\n") + "\n"
  );
}

function json(d: Data, filter: Filter, tornNow: number): string {
  return (
    JSON.stringify(
      {
        filter: { since: filter.since ?? null, project: filter.project ?? null },
        totals: d.totals,
        routes: d.routes,
        ...(d.periods ? { periods: d.periods } : {}),
        ...(d.history ? { history: d.history } : {}),
        ...(d.failures ? { failures: d.failures } : {}),
        hooks: d.hooks,
        context: d.context,
        netSavedTokens: d.totals.savedTokens - d.context.tokens,
        tornLines: d.torn,
        tornThisIngestion: tornNow,
        driver: d.driver,
      },
      null,
      2,
    ) + "\n"
  );
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One table: the latest runs, the failures, the periods, or the routes (the first asked for, in that order). */
function csv(d: Data, g: GainArgs): string {
  const rows = (d.history ?? d.failures ?? (g.period ? d.periods : null) ?? d.routes) as unknown as Record<string, unknown>[];
  const totalsKeys = ["runs", "rawTokens", "outTokens", "savedTokens", "savedPct", "omitted", "recalls", "fellBack"];
  const keys = d.history
    ? ["time", "project", "route", "command", "exitCode", "durationMs", "rawTokens", "outTokens", "savedTokens", "fellBack", "omitted", "recallId"]
    : d.failures
      ? ["route", "runs", "fellBack", "pct", "nonZeroExit"]
      : [g.period ? "period" : "route", ...totalsKeys];
  return [keys.join(","), ...rows.map((r) => keys.map((k) => csvCell(k.endsWith("Pct") || k === "pct" ? Number(r[k]).toFixed(1) : r[k])).join(","))].join("\n") + "\n";
}
