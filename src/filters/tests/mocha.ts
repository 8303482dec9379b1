// `mocha` (its spec reporter). Kept: the summary counts (passing, pending,
// failing) and every numbered failure after them (the suite path and test
// name, the error and its message, the expected/actual diff, the first stack
// frames outside node_modules and Node's internals), output the tests printed
// themselves. Dropped: suite titles and the ✔, numbered and pending lines of
// the run listing (the failures after the counts restate each), library frames,
// blank lines. A reporter chosen by the user passes through; a watch run streams.
import type { FilterContext } from "../types.js";
import { Frames, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^(-R|--reporter(=.*)?|--reporter-option(=.*)?|-O)$/;
const SUMMARY = /^ {2}\d+ (passing|pending|failing)\b/;

function mochaReader(ctx: FilterContext, kept: Kept) {
  let details = false;
  let listed = 0;
  const frames = new Frames(kept, "      ", ctx.recall, ctx.rawLine);
  return {
    get resultsDropped() {
      return listed;
    },
    line(t: string): void {
      if (t.trim() === "") return;
      const summary = SUMMARY.exec(t);
      if (summary) {
        // A watch run prints its counts again after each rerun: its listing comes anew.
        details = summary[1] === "failing" || (details && summary[1] === "pending");
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
      if (/^ {2}\d+\) /.test(t)) frames.close();
      if (frames.js(t)) return;
      kept.push(t);
    },
    close: () => frames.close(),
  };
}

export const mocha = runnerFilter({
  id: "test.mocha",
  watch: (args) => args.some((a) => a === "--watch" || a === "-w"),
  machine: MACHINE,
  reader: mochaReader,
  finish(ctx, { out, err }, [reader]) {
    // The counts go last, after the failures, where a `| tail` looks.
    const counts = out.lines.filter((l) => SUMMARY.test(l));
    const stdout = out.withMarker("lines", ctx.recall).filter((l) => !SUMMARY.test(l));
    if (reader.resultsDropped) markRecall(counts, /^ {2}\d+ passing\b/, ctx.recall);
    return { stdout: [...stdout, ...counts], stderr: err.lines };
  },
});
