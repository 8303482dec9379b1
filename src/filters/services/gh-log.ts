// `gh run view --log` and `--log-failed`: gh prefixes every line of a job's
// log with the job's and the step's names and a timestamp, apart by tabs.
// Those are said once, as a line `job / step:` where the step begins; each
// log line follows without its timestamp (the timestamps are behind the
// recall handle). Repeated lines are one line with their count, and past the
// content budget the head, the error lines between and the tail stay, as for
// any log (logs.ts). Lines of another shape stay as they are; stderr is kept
// whole.
import { limitsOf } from "../budget.js";
import { ErrorLines } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";
import { argsAfterSub, hasOption } from "./common.js";
import { logStream } from "./logs.js";

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

export const ghLog: Filter = {
  id: "gh.log",
  start(input, ctx): FilterRun {
    // Without --log a run view is the run's summary: printed as it is.
    const args = argsAfterSub(input);
    const passThrough = !hasOption(args, ["--log", "--log-failed"]) || hasOption(args, ["--json", "--jq", "-q", "--template", "-t", "--web", "-w"]);
    const out = logStream(limitsOf(ctx).content);
    const errors = new ErrorLines();
    let step = "";
    let stamps = 0;
    let chars = 0;
    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        if (passThrough) return;
        chars += text.length + 1;
        const m = /^([^\t]+)\t([^\t]*)\t(.*)$/.exec(text);
        if (!m) return out.push(text);
        const here = `${m[1]} / ${m[2]}`;
        if (here !== step) {
          step = here;
          out.push(`${here}:`);
        }
        const stamp = STAMP.exec(m[3]!);
        if (stamp) stamps++;
        out.push(stamp ? m[3]!.slice(stamp[0].length) : m[3]!);
      },
      end() {
        if (passThrough || !stamps) return null;
        const lines = out.lines(ctx.recall);
        lines.push(`(timestamps left out [rtk recall ${ctx.recall.id()}])`);
        const stdout = linesText(lines);
        return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
      },
    };
  },
};
