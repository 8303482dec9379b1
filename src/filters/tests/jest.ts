// `jest` (its default reporter, on stderr). Kept: each failing suite's FAIL
// line, every `● suite › test` block (message, Expected/Received, the diff,
// snapshot names, the first stack frames outside node_modules and Node's
// internals), suites that failed to run, console output of failing suites (its
// head), the snapshot summary and the summary counts. Dropped: PASS lines and
// their console output, source excerpts, library frames, Time, `Ran all test
// suites.`, watch mode's key help. The exit code is jest's own; a watch run
// (--watch, --watchAll) streams. A reporter or JSON chosen by the user
// passes through.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, jsFrame, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^(--json|--reporters(=.*)?|--outputFile(=.*)?|--listTests|--showConfig)$/;

function jestReader(ctx: FilterContext, kept: Kept) {
  let suitePassed = false;
  let inConsole = false;
  const consoleCap = capturedHead();
  const frames = new Frames(kept, "      ", ctx.recall);
  let resultsDropped = 0;
  const closeBlock = () => {
    frames.close();
    if (consoleCap.hidden) kept.push(`    ${omitted(consoleCap.hidden, "lines of console output", ctx.recall)}`);
    consoleCap.reset();
  };
  return {
    get resultsDropped() {
      return resultsDropped;
    },
    line(t: string): void {
      const suite = /^(PASS|FAIL) /.exec(t);
      if (suite) {
        closeBlock();
        inConsole = false;
        suitePassed = suite[1] === "PASS";
        if (suitePassed) resultsDropped++;
        else kept.push(t);
        return;
      }
      if (/^(Test Suites|Tests|Snapshots):\s/.test(t) || t === "Snapshot Summary") {
        closeBlock();
        suitePassed = false;
        inConsole = false;
        return kept.push(t);
      }
      if (/^Time:\s/.test(t) || /^Ran all test suites/.test(t) || /^Watch Usage/.test(t) || /^ › Press /.test(t)) return;
      if (suitePassed) return;
      const bullet = /^ {2}● (.*)$/.exec(t);
      if (bullet) {
        closeBlock();
        inConsole = bullet[1] === "Console";
        return kept.push(t);
      }
      if (t.trim() === "") return;
      if (inConsole) {
        if (consoleCap.take()) kept.push(t);
        return;
      }
      // Source excerpts: `    > 9 |   code`, `      10 |`, and the caret line.
      if (/^\s+>?\s*\d+ \|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t)) return;
      const frame = jsFrame(t);
      if (frame === "user") frames.add(t);
      if (frame) return;
      kept.push(t);
    },
    close: closeBlock,
  };
}

export const jest = runnerFilter({
  id: "test.jest",
  watch: (args) => args.some((a) => a === "--watch" || a === "--watchAll"),
  machine: MACHINE,
  reader: jestReader,
  stderr: "read",
  finish(ctx, { out, err }, readers) {
    const stderr = [...err.lines];
    if (err.over + out.over) stderr.push(omitted(err.over + out.over, "lines", ctx.recall));
    if (readers.some((r) => r?.resultsDropped)) markRecall(stderr, /^Tests:\s.*passed/, ctx.recall);
    return { stdout: out.lines, stderr };
  },
});
