// `git log`: in git's default format every commit becomes one line — hash, day,
// author, subject, merge parents (`a1b2c3d 2024-01-15 Ann: Fix the parser`) —
// with the body lines that carry meaning under it (all of them for a one-commit
// log); every commit shown stays shown. A format of the user's own is kept as
// it is; patches (`-p`) are compacted as `git diff` compacts them.
import { DEFAULT_LIMITS } from "../budget.js";
import { rawRun } from "../kit.js";
import type { Filter } from "../types.js";
import { namesGenerated } from "./diff-body.js";
import { historyArgs, opaqueOutput, ownContext, ownFormat, startHistory } from "./history.js";
import { optionArgs } from "./shared.js";

export const gitLog: Filter = {
  id: "git.log",
  // A patch's lines are content: a CRLF file's lines end in CR, a changed line may hold an escape byte.
  lineForm: () => "patch",
  start(input, { recall, limits, rawLine }) {
    const args = historyArgs(input);
    if (opaqueOutput(args)) return rawRun();
    return startHistory(
      recall,
      {
        body: maxCount(optionArgs(args)) === 1 ? "all" : "meaningful",
        trimContext: !ownContext(args),
        commits: !ownFormat(args),
        collapseGenerated: !namesGenerated(args),
      },
      limits ?? DEFAULT_LIMITS,
      rawLine,
    );
  },
};

/** The commit limit the user gave (`-3`, `-n 3`, `-n3`, `--max-count=3`), or null. */
function maxCount(args: readonly string[]): number | null {
  let n: number | null = null;
  args.forEach((a, i) => {
    const m = /^-(\d+)$/.exec(a) ?? /^-n(\d+)$/.exec(a) ?? /^--max-count=(\d+)$/.exec(a);
    if (m) n = Number(m[1]);
    else if ((a === "-n" || a === "--max-count") && /^\d+$/.test(args[i + 1] ?? "")) n = Number(args[i + 1]);
  });
  return n;
}
