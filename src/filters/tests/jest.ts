// `jest` (its default reporter, on stderr). Kept: each failing suite's FAIL
// line, every `● suite › test` block (message, Expected/Received, the diff,
// snapshot names, the first stack frames outside node_modules and Node's
// internals), suites that failed to run, console output of failing suites (its
// head), the snapshot summary and the summary counts. Dropped: PASS lines and
// their console output, the list of tests a run of one file prints, Time,
// `Ran all test suites.`, watch mode's key help (the summary's handle names
// the entry that holds them); a source excerpt and the frames past the first
// are marked where they stood. The exit code is jest's own; a watch run
// (--watch, --watchAll) streams. A reporter or JSON chosen by the user
// passes through.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, jsFrame, Kept, markRecall, runnerFilter, SourceExcerpt } from "./common.js";

const MACHINE = /^(--json|--reporters(=.*)?|--outputFile(=.*)?|--listTests|--showConfig)$/;

function jestReader(ctx: FilterContext, kept: Kept) {
  let suitePassed = false;
  let inConsole = false;
  /** In the list of a suite's tests that a run of one file prints (`✓ adds`, `✕ breaks`, describe names), up to its blank line. */
  let inList = false;
  const consoleCap = capturedHead();
  const frames = new Frames(kept, "      ", ctx.recall, ctx.rawLine);
  const source = new SourceExcerpt(kept, "      ", ctx.recall, ctx.rawLine);
  /** Lines not shown: passing suites and tests, timing; the summary's handle names the entry that holds them. */
  let dropped = 0;
  const closeBlock = () => {
    source.close();
    frames.close();
    if (consoleCap.hidden) kept.push(`    ${omitted(consoleCap.hidden, "lines of console output", ctx.recall)}`);
    consoleCap.reset();
  };
  return {
    get resultsDropped() {
      return dropped;
    },
    line(t: string): void {
      const excerpt = /^\s+>?\s*\d+ \|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t);
      if (!excerpt && t.trim() !== "") source.close();
      const suite = /^(PASS|FAIL) /.exec(t);
      if (suite) {
        closeBlock();
        inConsole = false;
        inList = true;
        suitePassed = suite[1] === "PASS";
        if (suitePassed) dropped++;
        else kept.push(t);
        return;
      }
      if (inList) {
        if (t.trim() === "") {
          inList = false;
          return;
        }
        // Each test of the list (and its describe names): a passing one is counted, a failing one told again in its ● block.
        if (/^\s{2,}/.test(t) && !/^ {2}●/.test(t)) {
          dropped++;
          return;
        }
        inList = false;
      }
      if (/^(Test Suites|Tests|Snapshots):\s/.test(t) || t === "Snapshot Summary") {
        closeBlock();
        suitePassed = false;
        inConsole = false;
        return kept.push(t);
      }
      if (/^Time:\s/.test(t) || /^Ran all test suites/.test(t) || /^Watch Usage/.test(t) || /^ › Press /.test(t)) {
        dropped++;
        return;
      }
      if (suitePassed) {
        if (t.trim() !== "") dropped++;
        return;
      }
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
      if (excerpt) return source.add(t);
      const frame = jsFrame(t);
      if (frame === "user") frames.add(t);
      else if (frame === "library") frames.skip();
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
    // What was not shown (passing tests, timing) is in the entry the summary names.
    if (readers.some((r) => r?.resultsDropped)) markRecall(stderr, /^Tests:\s/, ctx.recall);
    return { stdout: out.lines, stderr };
  },
});
