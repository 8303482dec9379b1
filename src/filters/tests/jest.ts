// `jest` (its default reporter, on stderr). Kept: each failing suite's FAIL
// line, every `● suite › test` block (message, Expected/Received, the diff,
// snapshot names, the first stack frames outside node_modules and Node's
// internals), suites that failed to run, console output of failing suites (its
// head), the snapshot summary and the summary counts. Dropped: PASS lines and
// their console output, source excerpts, library frames, Time, `Ran all test
// suites.` The exit code is jest's own. A reporter or JSON chosen by the user
// passes through.
import { omitted, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { CapturedHead, finish, Kept, machineOutput, RawSize, toolArgs } from "./common.js";

const MACHINE = /^(--json|--reporters(=.*)?|--outputFile(=.*)?|--listTests|--showConfig)$/;

/** Stack frames shown per failure; the rest are counted. */
const FRAMES = 3;

export function jestReader(ctx: FilterContext, kept: Kept) {
  let suitePassed = false;
  let inConsole = false;
  const consoleCap = new CapturedHead();
  let frames = 0;
  let hiddenFrames = 0;
  let resultsDropped = 0;
  const closeBlock = () => {
    if (hiddenFrames) kept.push(`      ${omitted(hiddenFrames, "frames", ctx.recall)}`);
    if (consoleCap.hidden) kept.push(`    ${omitted(consoleCap.hidden, "lines of console output", ctx.recall)}`);
    consoleCap.reset();
    frames = 0;
    hiddenFrames = 0;
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
      if (/^Time:\s/.test(t) || /^Ran all test suites/.test(t)) return;
      if (suitePassed) return;
      const bullet = /^ {2}● (.*)$/.exec(t);
      if (bullet) {
        closeBlock();
        inConsole = bullet[1] === "Console";
        return kept.push(t);
      }
      if (t.trim() === "") return;
      if (inConsole) {
        if (consoleCap.push()) kept.push(t);
        return;
      }
      // Source excerpts: `    > 9 |   code`, `      10 |`, and the caret line.
      if (/^\s+>?\s*\d+ \|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t)) return;
      const frame = /^\s+at (?:.* \()?(.+?)\)?$/.exec(t);
      if (frame) {
        if (/node_modules\/|^node:|<anonymous>|^internal\//.test(frame[1]!)) return;
        if (frames < FRAMES) {
          frames++;
          kept.push(t);
        } else hiddenFrames++;
        return;
      }
      kept.push(t);
    },
    close: closeBlock,
  };
}

export const jest: Filter = {
  id: "test.jest",
  start(input, ctx): FilterRun {
    const pass = machineOutput(toolArgs(input), MACHINE);
    const raw = new RawSize();
    const out = new Kept();
    const err = new Kept();
    const readers = { out: jestReader(ctx, out), err: jestReader(ctx, err) };
    return {
      line(s, t) {
        raw.add(t);
        if (!pass) readers[s].line(t);
      },
      end() {
        if (pass) return null;
        readers.out.close();
        readers.err.close();
        return finish(ctx, raw, jestFinish(ctx, out, err, readers.out.resultsDropped + readers.err.resultsDropped));
      },
    };
  },
};

export function jestFinish(ctx: FilterContext, out: Kept, err: Kept, dropped: number) {
  const stderr = [...err.lines];
  if (err.over + out.over) stderr.push(omitted(err.over + out.over, "lines", ctx.recall));
  const tests = stderr.findIndex((l) => /^Tests:\s.*passed/.test(l));
  if (dropped && tests >= 0) stderr[tests] += ` [rtk recall ${ctx.recall.id()}]`;
  return { stdout: out.lines, stderr };
}
