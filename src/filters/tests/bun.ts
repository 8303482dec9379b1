// `bun test` (its default reporter: results on stderr, the tests' console
// output on stdout). Kept: each failing test's `(fail)` line with its error,
// Expected/Received and diff, the first stack frames of the user's code, a
// timeout's note, unhandled errors between tests, the file header of a file
// with a failure, the head of the console output, the summary counts (pass,
// fail, skip, todo, error, snapshots, `Ran N tests across M files.`). Dropped:
// the banner, `(pass)`/`(skip)`/`(todo)` lines, source excerpts, separators,
// library frames, the expect() call count, times. A reporter chosen by the user
// passes through; a watch run is the tool's own.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^--reporter(=.*)?$|^--reporter-outfile(=.*)?$/;
const SUMMARY = /^\s*\d+ (pass|fail|skip|todo|error|errors|filtered out)$|^snapshots: |^Ran \d+ tests? across /;
/** A duration after a result or the run's total: `[0.24ms]`. */
const TIME = / \[[\d.]+m?s\]$/;

/** `results`: what bun reports (on stderr); the tests' console output (stdout) is held apart. */
function bunReader(ctx: FilterContext, results: Kept) {
  const summary: string[] = [];
  const consoleOut = new Kept();
  const consoleCap = capturedHead();
  const frames = new Frames(results, "      ", ctx.recall, ctx.rawLine);
  let file: string | null = null;
  let passed = 0;

  const keep = (t: string) => {
    if (file !== null) results.push(file);
    file = null;
    results.push(t);
  };
  return {
    summary,
    consoleOut,
    consoleCap,
    get resultsDropped() {
      return passed;
    },
    line(t: string, stream: "out" | "err"): void {
      if (t.trim() === "" || /^bun test v\d/.test(t) || /^-+$/.test(t) || /^\s*\d+ expect\(\) calls?$/.test(t)) return;
      // Source excerpts before an error: `10 |   code` and the caret line.
      if (/^\s*\d+ \|( |$)/.test(t) || /^\s+\^$/.test(t)) return;
      if (SUMMARY.test(t)) {
        frames.close();
        summary.push(t.replace(TIME, ""));
        return;
      }
      if (/^\S.*\.[cm]?[jt]sx?:$/.test(t)) {
        frames.close();
        file = t;
        return;
      }
      if (/^\(pass\) /.test(t)) {
        frames.close();
        passed++;
        return;
      }
      if (/^\((skip|todo)\) /.test(t)) return frames.close();
      if (/^\(fail\) /.test(t)) {
        frames.close();
        return keep(t.replace(TIME, ""));
      }
      if (frames.js(t)) return;
      // What the tests printed themselves goes to stdout: its head is shown.
      if (stream === "out") {
        if (consoleCap.take()) consoleOut.push(t);
        return;
      }
      keep(t);
    },
    close: () => frames.close(),
  };
}

export const bunTest = runnerFilter({
  id: "test.bun",
  // A watch run reruns until stopped: its output is the tool's own, live.
  inherits: (args) => args.some((a) => a === "--watch" || a === "--hot"),
  machine: MACHINE,
  reader: bunReader,
  stderr: "same",
  finish(ctx, { out }, [reader]) {
    const stdout = [...reader.consoleOut.lines];
    if (reader.consoleCap.hidden) stdout.push(omitted(reader.consoleCap.hidden, "lines of console output", ctx.recall));
    const stderr = out.withMarker("lines", ctx.recall);
    if (reader.resultsDropped) markRecall(reader.summary, /^\s*\d+ pass$/, ctx.recall);
    return { stdout, stderr: [...stderr, ...reader.summary] };
  },
});
