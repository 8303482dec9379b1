// `bun test` (its default reporter: results on stderr, the tests' console
// output on stdout). Kept: each failing test's `(fail)` line with its error,
// Expected/Received and diff, the first stack frames of the user's code, a
// timeout's note, unhandled errors between tests, the file header of a file
// with a failure, the head of the console output, the summary counts (pass,
// fail, skip, todo, error, snapshots, `Ran N tests across M files.`). Dropped:
// the banner, `(pass)`/`(skip)`/`(todo)` lines, source excerpts, separators,
// library frames, the expect() call count, times. A reporter chosen by the user
// passes through; a watch run is the tool's own.
import { omitted, type Filter, type FilterRun } from "../types.js";
import { capturedHead, finish, Frames, jsFrame, Kept, machineOutput, markRecall, RawSize, toolArgs } from "./common.js";

const MACHINE = /^--reporter(=.*)?$|^--reporter-outfile(=.*)?$/;
const SUMMARY = /^\s*\d+ (pass|fail|skip|todo|error|errors|filtered out)$|^snapshots: |^Ran \d+ tests? across /;
/** A duration after a result or the run's total: `[0.24ms]`. */
const TIME = / \[[\d.]+m?s\]$/;

export const bunTest: Filter = {
  id: "test.bun",
  // A watch run reruns until stopped: its output is the tool's own, live.
  inherits: (input) => toolArgs(input).some((a) => a === "--watch" || a === "--hot"),
  start(input, ctx): FilterRun {
    const pass = machineOutput(toolArgs(input), MACHINE);
    const raw = new RawSize();
    const kept = new Kept();
    const summary: string[] = [];
    const consoleOut = new Kept();
    const consoleCap = capturedHead();
    const frames = new Frames(kept, "      ", ctx.recall);
    let file: string | null = null;
    let passed = 0;

    const keep = (t: string) => {
      if (file !== null) kept.push(file);
      file = null;
      kept.push(t);
    };
    const read = (stream: "out" | "err", t: string) => {
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
      const frame = jsFrame(t);
      if (frame === "user") frames.add(t);
      if (frame) return;
      // What the tests printed themselves goes to stdout: its head is shown.
      if (stream === "out") {
        if (consoleCap.take()) consoleOut.push(t);
        return;
      }
      keep(t);
    };
    return {
      line(s, t) {
        raw.add(t);
        if (!pass) read(s, t);
      },
      end() {
        if (pass) return null;
        frames.close();
        const stdout = [...consoleOut.lines];
        if (consoleCap.hidden) stdout.push(omitted(consoleCap.hidden, "lines of console output", ctx.recall));
        const stderr = kept.withMarker("lines", ctx.recall);
        if (passed) markRecall(summary, /^\s*\d+ pass$/, ctx.recall);
        return finish(ctx, raw, { stdout, stderr: [...stderr, ...summary] });
      },
    };
  },
};
