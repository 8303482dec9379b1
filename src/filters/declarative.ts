// A filter written as data in a config file (`[[filters]]`, spec/runtime.md).
// Each line of each stream is kept or dropped (keep_lines / strip_lines), then
// rewritten (replace, every match, `$1` for groups); of what is left, the first
// `head` and last `tail` lines are printed with the middle elided by an exact
// count and a recall handle. Without head and tail, each stream is cut to the
// list budget (`[limits] list_tokens`) the same way: everything when it fits,
// else the head and tail that do. The streams stay apart: stderr
// lines are filtered into stderr.
//
// With `dropped`, the lines strip_lines/keep_lines took out are not gone
// silently: their exact count ends stdout (`… +N progress lines hidden [rtk
// recall <id>]`).
//
// When nothing is left, `on_empty` is printed, but only for a run that
// succeeded: a failed run whose lines were all dropped prints its raw output,
// so a failure never reads as "ok".
import type { BrokenFilter } from "../config/file.js";
import type { FilterDef, InlineTest } from "../config/schema.js";
import { toolName } from "../routes/match.js";
import type { RouteRow } from "../routes/types.js";
import { stripAnsi } from "../text/ansi.js";
import { LineWindow } from "./kit.js";
import { linesText, type CompactOutput, type Filter, type FilterRun, type RecallRef } from "./types.js";

export interface DeclarativeLimits {
  /** The list budget in characters (`[limits] list_tokens`, or the route's own). */
  listChars: number;
}

/** The recall handle inline tests show in place of a real id. */
export const TEST_RECALL_ID = "<id>";

export function declarativeFilter(def: FilterDef, limits: DeclarativeLimits): Filter {
  return {
    id: def.name,
    start: (_input, { recall }) => declarativeRun(def, limits, recall),
  };
}

export interface DeclarativeChoice {
  /** A declarative filter is named like the built-in route: the built-in filter is not used. */
  replacesRoute: boolean;
  /** The first filter whose `match` matches the command line. */
  filter: FilterDef | null;
  /** A definition with errors that was meant for this command: it then runs unfiltered. */
  broken: BrokenFilter | null;
}

/**
 * Which declarative filter a command gets. `commandLine` is the argv joined
 * with spaces; `routeId` the built-in route it matched, if any. A broken
 * definition is meant for the command when it is named like the route or its
 * (valid) `match` matches.
 */
export function selectDeclarative(filters: readonly FilterDef[], broken: readonly BrokenFilter[], commandLine: string, routeId: string | null): DeclarativeChoice {
  const named = (f: { name: string | null }) => routeId !== null && f.name === routeId;
  return {
    replacesRoute: filters.some(named) || broken.some(named),
    filter: filters.find((f) => f.match.test(commandLine)) ?? null,
    broken: broken.find((b) => named(b) || (b.match !== null && b.match.test(commandLine))) ?? null,
  };
}

/** The route a declarative filter's run is recorded under when no built-in route matched. */
export function declarativeRoute(def: FilterDef, argv: readonly string[]): RouteRow {
  return { id: def.name, tool: toolName(argv[0] ?? ""), filter: def.name, savings: 0, pipeSafe: false };
}

export function declarativeRun(def: FilterDef, limits: DeclarativeLimits, recall: RecallRef): FilterRun {
  const window = () => (def.head === null && def.tail === null ? LineWindow.within(limits.listChars) : LineWindow.counted(def.head ?? 0, def.tail ?? 0));
  const streams = { out: window(), err: window() };
  let dropped = 0;
  const droppedLine = () => (def.dropped !== null && dropped > 0 ? [`… +${dropped} ${def.dropped} hidden [rtk recall ${recall.id()}]`] : []);
  return {
    line(stream, text) {
      const kept = transform(def, text);
      if (kept !== null) streams[stream].push(kept);
      else dropped++;
    },
    end(exitCode): CompactOutput | null {
      if (streams.out.total === 0 && streams.err.total === 0) {
        if (exitCode !== 0) return null;
        const empty = def.onEmpty === null || def.onEmpty === "" ? [] : [def.onEmpty.replace(/\n$/, "")];
        return { stdout: linesText([...empty, ...droppedLine()]), stderr: "" };
      }
      return { stdout: linesText([...streams.out.lines(recall), ...droppedLine()]), stderr: linesText(streams.err.lines(recall)) };
    },
  };
}

/** The line as printed, or null when it is dropped. */
function transform(def: FilterDef, text: string): string | null {
  if (def.keepLines.length && !def.keepLines.some((re) => re.test(text))) return null;
  if (def.stripLines.some((re) => re.test(text))) return null;
  let line = text;
  for (const r of def.replace) line = line.replace(r.pattern, r.with);
  return line;
}

export interface InlineTestResult {
  test: InlineTest;
  passed: boolean;
  /** What the filter printed on stdout for the input. */
  actual: string;
}

/**
 * Runs one inline test: the filter on a successful command that printed
 * `input` on stdout. Omission markers show the recall id as `<id>`. (At run
 * time rtk prints the raw output instead when the filtered text is not shorter;
 * a test checks the filter itself, so short inputs work.)
 */
export function runInlineTest(def: FilterDef, limits: DeclarativeLimits, test: InlineTest): InlineTestResult {
  const run = declarativeRun(def, limits, { id: () => TEST_RECALL_ID });
  const lines = test.input === "" ? [] : test.input.replace(/\n$/, "").split("\n");
  for (const l of lines) run.line("out", stripAnsi(l.replace(/\r$/, "")));
  const actual = run.end(0)?.stdout ?? test.input;
  return { test, passed: actual.replace(/\n$/, "") === test.expected.replace(/\n$/, ""), actual };
}
