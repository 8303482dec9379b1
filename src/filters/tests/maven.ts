// `mvn test` (surefire's report through Maven's log). Kept: every [ERROR] and
// [WARNING] line but Maven's help boilerplate (failing classes, each failing
// test with its exception and the first frames outside the JDK, JUnit and
// Maven, the Failures/Errors lists, compilation errors), what the tests
// printed, the final `Tests run:` line and BUILD SUCCESS/FAILURE. Dropped:
// [INFO] progress (plugins, downloads, per-class passing counts, timing), library
// frames. The last line stays Maven's own.
import type { FilterContext } from "../types.js";
import { Frames, Kept, markRecall, runnerFilter } from "./common.js";

const LIBRARY_FRAME = /^\s+at (java\.base\/|java\.|javax\.|jdk\.|sun\.|org\.junit\.|junit\.|org\.opentest4j\.|org\.apache\.maven\.|org\.gradle\.)/;
const BOILERPLATE = /^\[ERROR\] ?$|^\[ERROR\] (To see the full stack trace|Re-run Maven using|For more information about the errors|\[Help \d+\] http|-> \[Help \d+\]|Please refer to dump files)/;

function mavenReader(ctx: FilterContext, kept: Kept) {
  const frames = new Frames(kept, "\t", ctx.recall, ctx.rawLine);
  let results = false;
  return {
    line(t: string): void {
      if (/^\s+at /.test(t)) {
        if (LIBRARY_FRAME.test(t)) frames.skip();
        else frames.add(t);
        return;
      }
      if (/^\s+\.\.\. \d+ more$/.test(t)) return;
      frames.close();
      if (t.trim() === "" || /^Progress \(\d+\)/.test(t)) return;
      if (BOILERPLATE.test(t)) return;
      if (/^\[INFO\] Results:$/.test(t)) {
        results = true;
        return;
      }
      if (t.startsWith("[INFO]")) {
        if (/^\[INFO\] (BUILD (SUCCESS|FAILURE)|\d+ (errors?|warnings?)$)/.test(t)) return kept.push(t);
        if (results && /^\[INFO\] Tests run: /.test(t)) return kept.push(t);
        return;
      }
      kept.push(t);
    },
    close: () => frames.close(),
  };
}

export const mavenTest = runnerFilter({
  id: "test.maven",
  reader: mavenReader,
  stderr: (t) => t.trim() !== "",
  finish(ctx, { out, err }) {
    const stdout = out.withMarker("lines", ctx.recall);
    markRecall(stdout, /^\[(INFO|ERROR)\] Tests run: \d+, .*Skipped: \d+$/, ctx.recall);
    return { stdout, stderr: err.lines };
  },
});
