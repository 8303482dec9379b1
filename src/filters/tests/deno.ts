// `deno test` (its default pretty reporter). Kept: each FAILED result line
// (steps too, with their parent's `due to N failed steps`), the output a failing
// test printed (its head, between deno's own output markers), the ERRORS
// section (each `name => file:line:col`, the error, its values and diff, the
// first frames of the user's code), the FAILURES list, the verdict line with
// its counts, stderr (type-check errors, `error: Test failed`) whole but for
// download progress. Dropped: `running N tests from` lines, passing and ignored
// results, openers of tests still running, source excerpts with their caret,
// deno's internal frames, durations. A reporter chosen by the user passes
// through; a watch run is the tool's own.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, jsFrame, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^--reporter(=.*)?$/;
const VERDICT = /^(ok|FAILED) \| \d+ passed/;
/** A duration at the end of a line: `(1ms)`, `(544µs)`, `(1s)`, `(1m2s)`. */
const TIME = / \((?:\d+m)?[\d.]+(?:ns|µs|ms|s)\)$/;
/** The lines framing what a test printed. */
const OUTPUT_START = /^-+ ((?:post-test )?output) -+$/;
const OUTPUT_END = /^-+ ((?:post-test )?output) end -+$/;

function denoReader(ctx: FilterContext, out: Kept) {
  const verdict: string[] = [];
  const frames = new Frames(out, "    ", ctx.recall, ctx.rawLine);
  const printed = capturedHead();
  let output: string[] | null = null;
  let held: string[] = [];
  let passed = 0;
  // A line held back one step: a source excerpt is the line before a caret line.
  let prev: string | null = null;

  const flush = () => {
    if (prev !== null) out.push(prev);
    prev = null;
  };
  return {
    verdict,
    get resultsDropped() {
      return passed;
    },
    line(t: string): void {
      if (output !== null) {
        if (OUTPUT_END.test(t)) {
          if (printed.hidden) output.push(omitted(printed.hidden, "lines of test output", ctx.recall));
          output.push(t);
          held = output;
          output = null;
          printed.reset();
        } else if (printed.take()) output.push(t);
        return;
      }
      if (/^\s+\^$/.test(t)) {
        prev = null;
        return;
      }
      const frame = jsFrame(t);
      if (frame !== null) {
        flush();
        if (frame === "user" && !/\(ext:|^\s+at ext:/.test(t)) frames.add(t);
        return;
      }
      frames.close();
      flush();
      if (t.trim() === "" || /^running \d+ tests? from /.test(t) || /^\s*.+ \.\.\. ignored( \(.*\))?$/.test(t)) return;
      if (OUTPUT_START.test(t)) {
        output = [t];
        return;
      }
      if (/^\s*.+ \.\.\. ok( \(.*\))?$/.test(t)) {
        passed++;
        held = [];
        return;
      }
      // A test's opener, printed before its output or its steps.
      if (/^\s*.+ \.\.\.$/.test(t)) return;
      if (/^\s*.+ \.\.\. FAILED\b/.test(t)) {
        out.push(t.replace(TIME, ""));
        for (const h of held) out.push(h);
        held = [];
        return;
      }
      if (VERDICT.test(t)) {
        verdict.push(t.replace(TIME, ""));
        return;
      }
      prev = t;
    },
    close(): void {
      flush();
      frames.close();
    },
  };
}

export const denoTest = runnerFilter({
  id: "test.deno",
  // A watch run reruns until stopped: its output is the tool's own, live.
  inherits: (args) => args.some((a) => a === "--watch" || a.startsWith("--watch=")),
  machine: MACHINE,
  reader: denoReader,
  // Type-check errors and `error: Test failed` are kept whole; download progress goes.
  stderr: (t) => !/^Download /.test(t),
  finish(ctx, { out, err }, [reader]) {
    const stdout = [...out.withMarker("lines", ctx.recall), ...reader.verdict];
    if (reader.resultsDropped) markRecall(stdout, VERDICT, ctx.recall);
    return { stdout, stderr: err.withMarker("lines", ctx.recall) };
  },
});
