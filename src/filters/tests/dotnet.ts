// `dotnet test` (the VSTest console logger, any verbosity). Kept: the compiler's
// errors and warnings (each once: MSBuild repeats them in its closing summary),
// `Build FAILED.`, each `Failed <test>` with its Error Message, the frames of
// its Stack Trace that point into the user's sources (`in file:line N`; the
// first ones), the head of its Standard Output/Error Messages, test host
// errors, the `Failed!`/`Passed!` line of each assembly (or the older Total
// tests block), the results file. Dropped: restore and build progress, the
// test run banner, xUnit's progress lines, `Passed`/`Skipped` lines of a
// verbose logger, framework frames, durations. A logger chosen by the user
// other than the console's, and a listing of the tests, pass through.
import { omitted } from "../types.js";
import { capturedHead, Frames, runnerFilter } from "./common.js";

/** Lines of restore, build and the test platform's banner: progress, not results. */
const NOISE =
  /^\s+(Determining projects to restore\.\.\.|All projects are up-to-date for restore\.|Restored \S.*|\S+ -> \/?\S.*)$|^(MSBuild version |Test run for |Microsoft \(R\) Test Execution|Copyright \(c\) Microsoft|Starting test execution, please wait|A total of \d+ test files? matched|\[xUnit\.net [\d:.]+\]|Time Elapsed |Build succeeded\.|\s+\d+ (Warning|Error)\(s\)$)/;
const SUMMARY = /^(Passed|Failed)!\s+- Failed:/;
const DIAGNOSTIC = /^\S.*\(\d+,\d+\): (error|warning) \w+: /;

/** Whether the user chose a logger of their own (trx, junit, html…), not the console's. */
function otherLogger(args: readonly string[]): boolean {
  return args.some((a, i) => {
    const value = /^(--logger|-l)$/.test(a) ? args[i + 1] : /^(?:--logger[=:])(.+)$/.exec(a)?.[1];
    return value !== undefined && !/^console(;|$)/.test(value.replace(/^"|"$/g, ""));
  });
}

export const dotnetTest = runnerFilter({
  id: "test.dotnet",
  machine: (args) => otherLogger(args) || args.some((a) => a === "--list-tests" || a === "-t"),
  reader(ctx, out) {
    const seen = new Set<string>();
    const frames = new Frames(out, "   ", ctx.recall, ctx.rawLine);
    const printed = capturedHead();
    let block: "message" | "stack" | "output" | null = null;
    let passed = 0;

    const closeBlock = () => {
      frames.close();
      if (printed.hidden) out.push(omitted(printed.hidden, "lines of test output", ctx.recall));
      printed.reset();
      block = null;
    };
    const line = (t: string) => {
      if (t.trim() === "" || NOISE.test(t)) return;
      if (DIAGNOSTIC.test(t)) {
        closeBlock();
        if (!seen.has(t)) out.push(t);
        seen.add(t);
        return;
      }
      const result = /^\s+(Passed|Failed|Skipped) (\S.*?)( \[[^\]]+\])?$/.exec(t);
      if (result && !/^\s+(Passed|Failed|Skipped): \d/.test(t)) {
        closeBlock();
        if (result[1] === "Passed") passed++;
        if (result[1] === "Failed") out.push(`  Failed ${result[2]}`);
        return;
      }
      if (SUMMARY.test(t)) {
        closeBlock();
        return out.push(t.replace(/, Duration: [^-]+ -/, " -"));
      }
      if (/^\s+Error Message:$/.test(t)) {
        closeBlock();
        block = "message";
        return out.push(t);
      }
      if (/^\s+Stack Trace:$/.test(t)) {
        frames.close();
        block = "stack";
        return out.push(t);
      }
      if (/^\s+Standard (Output|Error) Messages:$/.test(t)) {
        frames.close();
        block = "output";
        return out.push(t);
      }
      if (block === "stack" && /^\s+at /.test(t)) {
        // The user's frames carry their source line; the framework's do not.
        if (/ in \S.*:line \d+$/.test(t)) frames.add(t);
        else frames.skip();
        return;
      }
      if (block === "output") {
        if (printed.take()) out.push(t);
        return;
      }
      if (/^Total time: /.test(t)) return;
      out.push(t);
    };
    return {
      line,
      close: closeBlock,
      get passed() {
        return passed;
      },
    };
  },
  finish(ctx, kept, [reader]) {
    const stdout = kept.out.withMarker("lines", ctx.recall);
    // A verbose logger listed the passes: the summary line gets the recall handle.
    const at = stdout.findIndex((l) => SUMMARY.test(l));
    if (reader.passed && at >= 0) stdout[at] += ` [rtk recall ${ctx.recall.id()}]`;
    return { before: kept.err.withMarker("lines", ctx.recall), stdout };
  },
});
