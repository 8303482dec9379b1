// `vitest` (run, and watch: streamed). Kept: each failed test's block (FAIL
// line, error message, expected/received diff, every ` ❯ file:line:col` frame),
// failed suites and unhandled errors, a failed file's line, the console output
// of failing tests (its head), the summary counts. Dropped: the RUN banner,
// passing files and tests (the summary's handle names the entry that holds
// them), separators, start time and duration; a source excerpt under a frame
// is marked where it stood. Failures go first and the summary last, so a `| tail`
// sees the counts. A reporter or JSON chosen by the user passes through.
import { DroppedRun, noun } from "../kit.js";
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^(--reporter(=.*)?|--json|--outputFile(=.*)?|--silent=passed-only)$/;

/** The summary lines vitest prints at the end; Start at and Duration are timing noise. */
const SUMMARY = /^\s*(Test Files|Tests|Snapshots|Errors|Type Errors)\s{2}\S/;
const TIMING = /^\s*(Start at|Duration)\s{2}\S/;

export function isWatch(args: readonly string[]): boolean {
  const sub = args.find((a) => !a.startsWith("-"));
  if (args.includes("--run") || sub === "run" || sub === "bench") return false;
  return sub === "watch" || sub === "dev" || args.includes("--watch") || args.includes("-w");
}

/**
 * The line reader, shared by the buffered and the streamed run and by
 * `npm test` when the output is vitest's: `keep(stream, line)` for each line
 * worth showing, `console` blocks held until it is known whether their test failed.
 */
export function vitestReader(ctx: FilterContext, keep: (section: "fail" | "summary" | "console", line: string) => void, streamed = false) {
  /** Tests not listed (passing, skipped, or told again in their failure's block): the summary's handle names the entry that holds them. */
  let listed = 0;
  const source = new DroppedRun(ctx.rawLine);
  const closeSource = () => {
    for (const l of source.flush((n) => `${noun(n, "line")} of source`, ctx.recall)) keep("fail", l.startsWith("… ") ? `    ${l}` : l);
  };
  let inConsole: string | null = null;
  let consoleLines: string[] = [];
  const consoleCap = capturedHead();
  const consoles: { key: string; lines: string[] }[] = [];
  const failed = new Set<string>();
  const closeConsole = () => {
    if (inConsole === null) return;
    if (consoleCap.hidden) consoleLines.push(omitted(consoleCap.hidden, "lines of console output", ctx.recall));
    consoles.push({ key: inConsole, lines: consoleLines });
    inConsole = null;
    consoleLines = [];
    consoleCap.reset();
  };
  return {
    get listed() {
      return listed;
    },
    line(stream: "out" | "err", t: string): void {
      // Source excerpts under a frame: `  10|   code` and the caret line, marked where they stood.
      if (inConsole === null && (/^\s+\d+\|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t))) return source.add([t]);
      if (t.trim() !== "") closeSource();
      const console_ = /^(stdout|stderr) \| (.+)$/.exec(t);
      // Streamed, console output cannot wait for its test's result: it goes out as it comes, headed and capped.
      if (console_ && streamed) {
        consoleCap.reset();
        inConsole = "";
        return keep("console", t);
      }
      if (inConsole === "" && streamed) {
        if (t.trim() === "") {
          inConsole = null;
          return;
        }
        if (consoleCap.take()) keep("console", t);
        return;
      }
      if (console_) {
        closeConsole();
        inConsole = console_[2]!;
        consoleLines = [t];
        return;
      }
      if (inConsole !== null) {
        if (t.trim() === "") return closeConsole();
        if (consoleCap.take()) consoleLines.push(t);
        return;
      }
      if (t.trim() === "" || /^\s*(RUN|DEV)\s+v\d/.test(t) || /^\s*press h to show help/.test(t) || /^⎯+(\[\d+\/\d+\])?⎯*$/.test(t) || TIMING.test(t)) return;
      // Passing files and tests, skipped tests, failing tests (their block tells them again).
      if (/^\s*✓ /.test(t) || /^\s+[↓×] /.test(t) || /^\s*↓ /.test(t)) {
        listed++;
        return;
      }
      const fail = /^\s*FAIL\s+(.+?)(?: \[ .+ \])?$/.exec(t);
      if (fail) failed.add(fail[1]!.trim());
      const title = /^⎯+ (.+?) ⎯+$/.exec(t);
      if (title) return keep("fail", `⎯⎯ ${title[1]} ⎯⎯`);
      if (SUMMARY.test(t)) return keep("summary", t);
      if (/^\s*❯ \S+ \(\d+ tests?/.test(t)) return keep("summary", t);
      keep(stream === "err" || fail ? "fail" : "summary", t);
    },
    /** The console blocks of failing tests (or of a failing file, printed outside a test). */
    consoles(): string[] {
      closeSource();
      closeConsole();
      const files = new Set([...failed].map((f) => f.split(" > ")[0]!));
      return consoles.filter((c) => failed.has(c.key) || (!c.key.includes(" > ") && files.has(c.key))).flatMap((c) => c.lines);
    },
  };
}

export const vitest = runnerFilter({
  id: "test.vitest",
  watch: isWatch,
  machine: MACHINE,
  // Failures and the summary held apart (the summary goes last); a watch run sends each kept line out as it comes, on the stream it came on.
  reader(ctx, summary, _args, streamed) {
    const fail = streamed ? summary : new Kept();
    const reader = vitestReader(ctx, (section, l) => (section === "fail" ? fail : summary).push(l), streamed);
    return {
      fail,
      line: (t: string, stream: "out" | "err") => reader.line(stream, t),
      close() {},
      consoles: reader.consoles,
      get listed() {
        return reader.listed;
      },
    };
  },
  stderr: "same",
  finish: (ctx, { out }, [reader]) => vitestFinish(ctx, reader.consoles(), reader.fail, out, reader.listed > 0),
});

/** Failures (with the console output of failing tests) first on stderr, the summary last on stdout with the recall handle of the tests not listed. */
export function vitestFinish(ctx: FilterContext, consoles: readonly string[], fail: Kept, summary: Kept, listed: boolean) {
  const stdout = [...summary.lines];
  const over = fail.over + summary.over;
  if (over) stdout.push(omitted(over, "lines", ctx.recall));
  if (listed) markRecall(stdout, /^\s*Tests\s{2}/, ctx.recall);
  return { before: [...consoles, ...fail.lines], stdout };
}
