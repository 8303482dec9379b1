// The run shared by `git log`, `git show` and `git diff`: commit headers (when
// the output is git's default format) and patches compacted, stderr kept as it
// is, memory capped, and every omission counted at the end with its recall handle.
// The compact form is shown whole while it fits its budget: the list budget for
// commits alone, the content budget once it holds patches; past it, a list
// keeps the first lines that fit, patches a head and a tail, and the lines
// between are counted (with the commits among them).
import { DEFAULT_LIMITS, type Limits } from "../budget.js";
import { BoundedLines, counted, fitCount } from "../kit.js";
import { linesText, omitted, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { CommitStream, type BodyPolicy } from "./commits.js";
import { DiffBody } from "./diff-body.js";
import { Held, isCommitLine, optionArgs, subcommandArgs } from "./shared.js";

export interface HistoryOptions {
  body: BodyPolicy;
  trimContext: boolean;
  /** The output is in git's default format: commit headers are compacted (else kept as the user asked). */
  commits: boolean;
  /** Count the hunks of lockfiles, minified bundles and source maps instead of showing them. */
  collapseGenerated: boolean;
  /** Whether the first line of stdout is one this run understands; when not, the raw output is printed. */
  recognise?: (firstLine: string) => boolean;
}

const ERR_BYTES = 64 * 1024;

/** Arguments that make the output something other than patches and headers: the raw output is printed. */
export function opaqueOutput(args: readonly string[]): boolean {
  return optionArgs(args).some((a) => /^(?:-z|--graph|--word-diff(?:=.*)?|--word-diff-regex(?:=.*)?|--color-words(?:=.*)?)$/.test(a));
}

/** Whether the user chose a format of their own (`--oneline`, `--format=…`, `--pretty=…` other than medium). */
export function ownFormat(args: readonly string[]): boolean {
  return optionArgs(args).some((a) => {
    if (a === "--oneline") return true;
    const m = /^--(?:pretty|format)=(.*)$/.exec(a);
    return m !== null && m[1] !== "medium";
  });
}

/** Whether the user chose how much context to see (then none is trimmed). */
export function ownContext(args: readonly string[]): boolean {
  return optionArgs(args).some((a) => /^(?:-U\d*|--unified(?:=.*)?|-W|--function-context|--inter-hunk-context(?:=.*)?)$/.test(a));
}

export function historyArgs(input: FilterInput): readonly string[] {
  return subcommandArgs(input).args;
}

/** Room kept in the budget for the markers at the end. */
const MARKER_ROOM = 200;

/** `at`: FilterContext.rawLine, where the line being read stands in the recall entry (the markers of dropped context name their lines). */
export function startHistory(recall: RecallRef, opts: HistoryOptions, limits: Limits = DEFAULT_LIMITS, at?: () => number): FilterRun {
  const held = new Held();
  const patch = new DiffBody(held, recall, { trimContext: opts.trimContext, keepBlank: !opts.commits, collapseGenerated: opts.collapseGenerated }, at);
  const commits = new CommitStream(held, patch, recall, opts.body);
  const err = new BoundedLines<string>(ERR_BYTES);
  const over = { lines: 0, commits: 0, files: 0 };
  let aborted = false;
  let first = true;
  let opaque = false;
  return {
    line(stream, text) {
      if (opaque) return;
      if (stream === "err") return void err.add(text);
      if (first && text !== "") {
        first = false;
        if (opts.recognise && !opts.recognise(text)) {
          opaque = true;
          return;
        }
      }
      // Past the cap, the commit being read still gets its date, author and subject.
      if (held.full && !aborted && opts.commits && commits.headerPending && !isCommitLine(text)) return commits.line(text);
      if (held.full) {
        if (!aborted) {
          if (opts.commits) commits.abort();
          else patch.abort();
          aborted = true;
        }
        over.lines++;
        if (isCommitLine(text)) over.commits++;
        if (text.startsWith("diff --")) over.files++;
        return;
      }
      if (opts.commits) commits.line(text);
      else patch.line(text);
    },
    end() {
      if (opaque) return null;
      if (!aborted) {
        if (opts.commits) commits.end();
        else patch.abort();
      }
      // Nothing of git's default shapes: the raw output is what the user asked for.
      if (commits.commits === 0 && patch.filesTotal === 0) return null;
      let out = held.lines();
      const budget = patch.filesTotal > 0 ? limits.content : limits.list;
      let chars = out.reduce((n, l) => n + l.length + 1, 0);
      if (chars > budget) {
        // A list keeps its first lines (the newest commits); patches their head and tail (the summary is last).
        const room = budget - MARKER_ROOM;
        const headRoom = patch.filesTotal > 0 ? room / 2 : room;
        const cost = (l: string) => l.length + 1;
        const head = fitCount(out, headRoom, cost, { atLeast: 1 });
        chars = out.slice(0, head).reduce((n, l) => n + cost(l), 0);
        const tail = out.length - (patch.filesTotal > 0 ? fitCount(out.slice(head).reverse(), room - chars, cost) : 0);
        let commits = 0;
        for (let i = head; i < tail; i++) if (held.isCommit(i)) commits++;
        out = [...out.slice(0, head), omitted(tail - head, `lines${commits ? ` (${counted(commits, "commit")})` : ""}`, recall), ...out.slice(tail)];
      }
      if (over.lines) {
        const what = [over.commits && counted(over.commits, "commit"), over.files && counted(over.files, "file")].filter(Boolean);
        out.push(omitted(over.lines, `lines${what.length ? ` (${what.join(", ")})` : ""}`, recall));
      }
      if (commits.hiddenBody) out.push(omitted(commits.hiddenBody, "message body lines", recall));
      const errLines = err.dropped ? [...err.items, omitted(err.dropped, "stderr lines", recall)] : err.items;
      return { stdout: linesText(out), stderr: linesText(errLines) };
    },
  };
}
