// `gh pr|issue|run|release list` and `gh pr checks`, as gh prints them into a
// pipe (tab-separated, no header): the rows grouped by state, each with what
// names it and what it is about — a pull request's number and title, an
// issue's with its labels, a run's id, workflow, title and branch, a release's
// tag and title, a check's name (a failing one with its link and description).
// The columns left out (branches, times, events, durations) are named once in
// the group's line, the raw table behind the recall handle. Output the user
// shaped (`--json`, `--jq`, `--template`, `--web`) and anything not in the
// expected shape pass through; `checks --watch` runs on the terminal.
import { limitsOf } from "../budget.js";
import { ErrorLines } from "../kit.js";
import { linesText, omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { argsAfterSub, hasOption } from "./common.js";

interface Shape {
  /** Fields of a row (at least; gh adds some in newer versions). */
  fields: number;
  /** The group a row is in. */
  group: (f: readonly string[]) => string;
  /** The row as shown in its group. */
  show: (f: readonly string[]) => string;
  /** What a row is called. */
  word: string;
  /** The columns not shown. */
  leftOut: string;
  /** Groups whose rows show on one line, names only. */
  terse?: (group: string) => boolean;
}

const labels = (l: string) => (l ? ` [${l}]` : "");

const SHAPES: Record<string, Shape> = {
  // number, title, head branch, state, created at
  "pr list": { fields: 5, group: (f) => f[3]!, show: (f) => `${f[0]} ${f[1]}`, word: "pull request", leftOut: "branch, created" },
  // number, state, title, labels, updated at
  "issue list": { fields: 5, group: (f) => f[1]!, show: (f) => `${f[0]} ${f[2]}${labels(f[3]!)}`, word: "issue", leftOut: "updated" },
  // status, conclusion, title, workflow, branch, event, id, elapsed, started at
  "run list": { fields: 9, group: (f) => (f[1] ? `${f[0]} ${f[1]}` : f[0]!), show: (f) => `${f[6]} ${f[3]}: ${f[2]} (${f[4]})`, word: "run", leftOut: "event, elapsed, started" },
  // title, type (Latest, Draft, Pre-release or empty), tag, published at
  "release list": { fields: 4, group: (f) => f[1] || "release", show: (f) => `${f[2]} ${f[0]}`, word: "release", leftOut: "published" },
  // name, state, elapsed, link, description
  "pr checks": {
    fields: 4,
    group: (f) => f[1]!,
    show: (f) => (f[1] === "fail" ? `${f[0]}: ${[f[4], f[3]].filter(Boolean).join(" ")}` : f[0]!),
    word: "check",
    leftOut: "elapsed, links of checks that did not fail",
    terse: (g) => g !== "fail",
  },
};

const SHAPED = ["--json", "--jq", "-q", "--template", "-t", "--web", "-w"];

function shapeOf(input: FilterInput): Shape | null {
  const noun = input.argv[input.subIndex];
  const verb = input.argv[input.subIndex + 1] === "ls" ? "list" : input.argv[input.subIndex + 1];
  return SHAPES[`${noun} ${verb}`] ?? null;
}

export const gh: Filter = {
  id: "gh",
  inherits: (input) => hasOption(argsAfterSub(input), ["--watch"]),
  start(input, ctx): FilterRun {
    const shape = shapeOf(input);
    const passThrough = !shape || hasOption(argsAfterSub(input).slice(1), SHAPED);
    const errors = new ErrorLines();
    const groups = new Map<string, string[]>();
    let rows = 0;
    let chars = 0;
    let other = false;
    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        if (passThrough || other) return;
        chars += text.length + 1;
        const f = text.split("\t");
        if (f.length < shape!.fields) {
          other = true;
          return;
        }
        rows++;
        const g = shape!.group(f);
        const row = shape!.show(f);
        const list = groups.get(g);
        if (list) list.push(row);
        else groups.set(g, [row]);
      },
      end() {
        if (passThrough || other) return null;
        if (!rows) return { stdout: "", stderr: errors.text(ctx.recall) };
        const s = shape!;
        const out: string[] = [];
        const budget = limitsOf(ctx).list;
        let used = 0;
        let hidden = 0;
        let first = true;
        for (const [g, items] of groups) {
          const title = `${g} (${items.length}${first ? `; ${s.leftOut} left out [rtk recall ${ctx.recall.id()}]` : ""})`;
          first = false;
          if (s.terse?.(g)) {
            out.push(`${title}: ${items.join(", ")}`);
            used += out[out.length - 1]!.length;
            continue;
          }
          out.push(`${title}:`);
          for (const item of items) {
            if (hidden || used + item.length + 1 > budget) hidden++;
            else {
              out.push(item);
              used += item.length + 1;
            }
          }
        }
        if (hidden) out.push(omitted(hidden, hidden === 1 ? s.word : `${s.word}s`, ctx.recall));
        const stdout = linesText(out);
        return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
      },
    };
  },
};

/**
 * `gh pr|issue|release view` into a pipe: `field:<tab>value` lines, `--`,
 * then the body. The fields with no value go (named once); every other line,
 * the body whole, stays as gh printed it.
 */
export const ghView: Filter = {
  id: "gh.view",
  start(input, ctx): FilterRun {
    const passThrough = hasOption(argsAfterSub(input).slice(1), SHAPED);
    const out: string[] = [];
    const empty: string[] = [];
    let chars = 0;
    let body = false;
    const errors = new ErrorLines();
    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        if (passThrough) return;
        chars += text.length + 1;
        if (text === "--") body = !body;
        const m = body ? null : /^([\w-]+):\t?$/.exec(text);
        if (m) return void empty.push(m[1]!);
        out.push(text);
      },
      end() {
        if (passThrough || !empty.length) return null;
        const stdout = linesText(out);
        return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
      },
    };
  },
};
