// `git diff` and `git show`: every file with what happened to it, every hunk
// header and every `+`/`-` line, one line of context each side of a change, a
// summary line per diff (`3 files changed, +10 -2`); a commit shown by `git show`
// keeps its whole message. Huge hunks keep head and tail around a recall
// marker; a lockfile, minified bundle or source map is counted, not shown,
// unless the user named one. Stat and name lists (`--stat`, `--name-only`, …)
// are already compact.
import { DEFAULT_LIMITS } from "../budget.js";
import { rawRun } from "../kit.js";
import type { Filter, FilterInput } from "../types.js";
import { namesGenerated } from "./diff-body.js";
import { historyArgs, opaqueOutput, ownContext, ownFormat, startHistory } from "./history.js";
import { optionArgs, subcommandArgs } from "./shared.js";

const DIFF_START = /^(?:diff --|\* Unmerged path | .* \| +(?:\d+|Bin))/;
const SHOW_START = /^(?:commit [0-9a-f]{7,64}\b|tag \S+$|diff --)/;

export const gitDiff: Filter = {
  id: "git.diff",
  // A patch's lines are content: a CRLF file's lines end in CR, a changed line may hold an escape byte.
  // A file `git show` prints is content byte for byte.
  lineForm: (input) => (showsBlob(input) ? "verbatim" : "patch"),
  start(input, { recall, limits, rawLine }) {
    const { sub } = subcommandArgs(input);
    const args = historyArgs(input);
    const show = sub === "show";
    const blob = showsBlob(input);
    if (blob || opaqueOutput(args)) return rawRun();
    const own = ownFormat(args);
    return startHistory(
      recall,
      {
        body: "all",
        trimContext: !ownContext(args),
        commits: !own,
        collapseGenerated: !namesGenerated(args),
        ...(own ? {} : { recognise: (l: string) => (show ? SHOW_START : DIFF_START).test(l) }),
      },
      limits ?? DEFAULT_LIMITS,
      rawLine,
    );
  },
};

/** `git show HEAD:path` prints a file: content is never reshaped (`:/text` names a commit by its message). */
function showsBlob(input: FilterInput): boolean {
  return subcommandArgs(input).sub === "show" && optionArgs(historyArgs(input)).some((a) => !a.startsWith("-") && !a.startsWith(":/") && a.includes(":"));
}
