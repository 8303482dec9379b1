// `mocha` (its spec reporter). Kept: the summary counts (passing, pending,
// failing) and every numbered failure after them (the suite path and test
// name, the error and its message, the expected/actual diff, the first stack
// frames outside node_modules and Node's internals), output the tests printed
// themselves. Dropped: suite titles and the ✔, numbered and pending lines of
// the run listing (the failures after the counts restate each), library frames,
// blank lines. A reporter chosen by the user passes through.
import { omitted, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { finish, Kept, machineOutput, RawSize, toolArgs } from "./common.js";

const MACHINE = /^(-R|--reporter(=.*)?|--reporter-option(=.*)?|-O)$/;
const FRAMES = 3;
const SUMMARY = /^ {2}\d+ (passing|pending|failing)\b/;

export function mochaReader(ctx: FilterContext, kept: Kept) {
  let details = false;
  let frames = 0;
  let hidden = 0;
  let listed = 0;
  const close = () => {
    if (hidden) kept.push(`      ${omitted(hidden, "frames", ctx.recall)}`);
    frames = 0;
    hidden = 0;
  };
  return {
    get resultsDropped() {
      return listed;
    },
    line(t: string): void {
      if (t.trim() === "") return;
      const summary = SUMMARY.exec(t);
      if (summary) {
        if (summary[1] === "failing") details = true;
        return kept.push(t);
      }
      if (!details) {
        // The run listing: passes, numbered failures, pending tests, suite titles.
        if (/^\s+(✔|✓|\d+\)|-) /.test(t) || /^ {2,}\S/.test(t)) {
          listed++;
          return;
        }
        return kept.push(t);
      }
      if (/^ {2}\d+\) /.test(t)) close();
      const frame = /^\s+at (?:.* \()?(.+?)\)?$/.exec(t);
      if (frame) {
        if (/node_modules\/|^node:|<anonymous>|^internal\//.test(frame[1]!)) return;
        if (frames < FRAMES) {
          frames++;
          kept.push(t);
        } else hidden++;
        return;
      }
      kept.push(t);
    },
    close,
  };
}

export const mocha: Filter = {
  id: "test.mocha",
  start(input, ctx): FilterRun {
    const pass = machineOutput(toolArgs(input), MACHINE);
    const raw = new RawSize();
    const out = new Kept();
    const err = new Kept();
    const reader = mochaReader(ctx, out);
    return {
      line(s, t) {
        raw.add(t);
        if (pass) return;
        if (s === "err") err.push(t);
        else reader.line(t);
      },
      end() {
        if (pass) return null;
        reader.close();
        return finish(ctx, raw, mochaFinish(ctx, out, err, reader.resultsDropped));
      },
    };
  },
};

export function mochaFinish(ctx: FilterContext, out: Kept, err: Kept, listed: number) {
  // The counts go last, after the failures, where a `| tail` looks.
  const counts = out.lines.filter((l) => SUMMARY.test(l));
  const stdout = out.lines.filter((l) => !SUMMARY.test(l));
  if (out.over) stdout.push(omitted(out.over, "lines", ctx.recall));
  const passing = counts.findIndex((l) => /^ {2}\d+ passing\b/.test(l));
  if (listed && passing >= 0) counts[passing] += ` [rtk recall ${ctx.recall.id()}]`;
  return { stdout: [...stdout, ...counts], stderr: err.lines };
}
