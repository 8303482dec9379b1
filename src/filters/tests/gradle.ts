// `gradle test` / `./gradlew test` (the console output). Kept: failed tasks,
// each `Class > test() FAILED` with its exception and location lines, the
// test count, what went wrong, the build result. Dropped: task lines that
// did not fail, PASSED/SKIPPED lines of test logging (counted in a last line),
// the daemon's start, `* Try:` advice, the deprecation notice and the
// actionable-task count.
import { omitted, type Filter, type FilterRun } from "../types.js";
import { finish, Kept, RawSize } from "./common.js";

const NOISE =
  /^(Starting a Gradle Daemon|\d+ actionable tasks?:|Deprecated Gradle features were used|You can use '--warning-mode all'|For more on this, please refer to|<[-=]*> \d+% (EXECUTING|CONFIGURING|INITIALIZING))/;

export const gradleTest: Filter = {
  id: "test.gradle",
  start(_input, ctx): FilterRun {
    const raw = new RawSize();
    const kept = { out: new Kept(), err: new Kept() };
    let passed = 0;
    let skipped = 0;
    let advice = false;
    return {
      line(s, t) {
        raw.add(t);
        if (t.trim() === "") {
          advice = false;
          return;
        }
        if (/^\* Try:$/.test(t)) {
          advice = true;
          return;
        }
        if (advice && /^> /.test(t)) return;
        if (/^> Task :\S+/.test(t) && !/ FAILED$/.test(t)) return;
        if (/ > .* PASSED$/.test(t)) {
          passed++;
          return;
        }
        if (/ > .* SKIPPED$/.test(t)) {
          skipped++;
          return;
        }
        if (NOISE.test(t)) return;
        kept[s].push(t);
      },
      end() {
        const stdout = [...kept.out.lines];
        const over = kept.out.over + kept.err.over;
        if (over) stdout.push(omitted(over, "lines", ctx.recall));
        if (passed + skipped) stdout.push(`gradle: ${passed} passed${skipped ? `, ${skipped} skipped` : ""} tests not listed [rtk recall ${ctx.recall.id()}]`);
        return finish(raw, { stdout, stderr: kept.err.lines });
      },
    };
  },
};
