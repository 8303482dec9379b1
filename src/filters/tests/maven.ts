// `mvn test` (surefire's report through Maven's log). Kept: every [ERROR] and
// [WARNING] line but Maven's help boilerplate (failing classes, each failing
// test with its exception and the first frames outside the JDK, JUnit and
// Maven, the Failures/Errors lists, compilation errors), what the tests
// printed, the final `Tests run:` line and BUILD SUCCESS/FAILURE. Dropped:
// [INFO] progress (plugins, downloads, per-class passing counts, timing), library
// frames. The last line stays Maven's own.
import { omitted, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { finish, Kept, RawSize } from "./common.js";

const FRAMES = 3;
const LIBRARY_FRAME = /^\s+at (java\.base\/|java\.|javax\.|jdk\.|sun\.|org\.junit\.|junit\.|org\.opentest4j\.|org\.apache\.maven\.|org\.gradle\.)/;
const BOILERPLATE = /^\[ERROR\] ?$|^\[ERROR\] (To see the full stack trace|Re-run Maven using|For more information about the errors|\[Help \d+\] http|-> \[Help \d+\]|Please refer to dump files)/;

export function mavenReader(ctx: FilterContext, kept: Kept) {
  let frames = 0;
  let hidden = 0;
  let results = false;
  const close = () => {
    if (hidden) kept.push(`\t${omitted(hidden, "frames", ctx.recall)}`);
    frames = 0;
    hidden = 0;
  };
  return {
    line(t: string): void {
      if (/^\s+at /.test(t)) {
        if (LIBRARY_FRAME.test(t)) return;
        if (frames < FRAMES) {
          frames++;
          kept.push(t);
        } else hidden++;
        return;
      }
      if (/^\s+\.\.\. \d+ more$/.test(t)) return;
      close();
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
    close,
  };
}

export const mavenTest: Filter = {
  id: "test.maven",
  start(_input, ctx): FilterRun {
    const raw = new RawSize();
    const out = new Kept();
    const err = new Kept();
    const reader = mavenReader(ctx, out);
    return {
      line(s, t) {
        raw.add(t);
        if (s === "err") {
          if (t.trim()) err.push(t);
        } else reader.line(t);
      },
      end() {
        reader.close();
        const stdout = [...out.lines];
        if (out.over) stdout.push(omitted(out.over, "lines", ctx.recall));
        const total = stdout.findIndex((l) => /^\[(INFO|ERROR)\] Tests run: \d+, .*Skipped: \d+$/.test(l));
        if (total >= 0) stdout[total] += ` [rtk recall ${ctx.recall.id()}]`;
        return finish(ctx, raw, { stdout, stderr: err.lines });
      },
    };
  },
};
