// `find`: every path, grouped by directory so a shared prefix is printed once.
//
// The compact form, line by line (every path find printed is recoverable):
//   - `<dir>/ <name> <name> …` stands for the paths `<dir>/<name>`, …; neither
//     the directory nor the names hold whitespace or start with a quote. A
//     name may hold a slash (`api/ auth/route.ts`: the only path of a folder
//     of its own). A directory find printed appears as a name of its own
//     parent (or alone).
//   - A line that starts with `'` is one path, quoted as a shell would
//     (`'\''` inside for a quote): a path that holds whitespace or starts
//     with a quote. A line that starts with `$'` is one path in ANSI-C
//     quotes (`\n` for a newline in a name, `\\` and `\'` for themselves).
//   - Any other line is a path as find printed it.
//   - A leading `./` is dropped (`./src/a.ts` → `src/a.ts`); `.` stays.
// Paths are sorted (directories by component, names within a directory; the
// folders of dependencies, build output, caches and version control last),
// which also makes the form independent of the file system's order. Every
// path is shown while the grouped form fits the list budget (`[limits]
// list_tokens`); past it, the first paths in that order that fit, the rest
// counted, with a recall handle and the directories it is in. Errors (`find: …: Permission denied`) stay on
// stderr. Output that is not one path per line (`-printf`, `-print0`, `-ls`,
// actions) passes through.
import { limitsOf } from "../budget.js";
import { ErrorLines, fitCount, groupByDir, withoutDotSlash } from "../kit.js";
import { omitted, type Filter, type FilterRun } from "../types.js";
import { compareText, sortForeground, toolArgs } from "./common.js";

/** Characters kept in the budget for the marker that counts the rest by directory. */
const MARKER_ROOM = 600;
/** Paths held for sorting; past it, the rest is counted only. */
const MAX_HELD = 100_000;
/** Directories named, with their counts, in the marker. */
const MAX_DIRS_NAMED = 40;

const OTHER_OUTPUT = new Set(["-printf", "-fprintf", "-print0", "-fprint", "-fprint0", "-ls", "-fls", "-exec", "-execdir", "-ok", "-okdir", "-delete", "--help", "--version", "-help", "-version"]);

export const find: Filter = {
  id: "find",
  // A CR is part of a name.
  lineForm: () => "text",
  start(input, ctx): FilterRun {
    const { recall } = ctx;
    const skip = toolArgs(input).some((a) => OTHER_OUTPUT.has(a));
    const starts = startPoints(toolArgs(input));
    const err = new ErrorLines();
    const paths: string[] = [];
    let unheld = 0;
    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (skip) return;
        // Every path starts with a starting point: a line that does not goes on the path before it (a name holding a newline).
        if (paths.length && paths.length < MAX_HELD && !unheld && !starts.some((p) => text.startsWith(p))) {
          paths[paths.length - 1] += "\n" + text;
          return;
        }
        if (paths.length >= MAX_HELD) unheld++;
        else paths.push(text);
      },
      end() {
        if (skip || !paths.length) return null;
        const total = paths.length + unheld;
        const budget = limitsOf(ctx).list;
        let { lines, rest } = groupPaths(paths);
        if (unheld || lines.reduce((n, l) => n + l.length + 1, 0) > budget) ({ lines, rest } = groupPaths(paths, Math.max(0, budget - MARKER_ROOM)));
        const hidden = total - (paths.length - rest.reduce((n, [, c]) => n + c, 0));
        if (hidden) {
          // The directories named fit in the room kept for the marker.
          const entries = rest.map(([dir, n]) => `${dir} (${n})`);
          const named = entries.slice(
            0,
            fitCount(entries, MARKER_ROOM - 80, (e) => e.length + 2, { max: MAX_DIRS_NAMED }),
          );
          const more = rest.length - named.length;
          const where = named.length ? `: ${named.join(", ")}${more ? `, ${more} more dirs` : ""}` : "";
          lines.push(omitted(hidden, "paths", recall) + where);
        }
        return { stdout: lines.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};

/** One path as a line of its own: quoted when it could be read as a group or holds whitespace (`$'…'` for a newline). */
function alonePath(path: string): string {
  if (/[\n\r]/.test(path)) return `$'${path.replace(/[\\']/g, "\\$&").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}'`;
  return /\s/.test(path) || path.startsWith("'") ? `'${path.replace(/'/g, "'\\''")}'` : path;
}

/** The starting points of a find command line (`.` when none): the operands before its expression. */
function startPoints(args: readonly string[]): string[] {
  const starts: string[] = [];
  let skipNext = false;
  for (const a of args) {
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (a === "-H" || a === "-L" || a === "-P" || /^-O\d$/.test(a)) continue;
    if (a === "-D") {
      skipNext = true;
      continue;
    }
    if (a.startsWith("-") || a === "(" || a === "!" || a === ",") break;
    starts.push(a);
  }
  return starts.length ? starts : ["."];
}

const PLAIN = /^[^\s']\S*$/;

/**
 * The grouped form of a list of paths (see the comment at the top), showing
 * the first of them in order whose lines fit in `maxChars` (at least one);
 * `rest` counts the others by directory.
 */
export function groupPaths(raw: readonly string[], maxChars = Infinity): { lines: string[]; rest: [string, number][] } {
  const { groups, alone } = groupByDir(raw.map(withoutDotSlash));
  foldSingles(groups);
  const items: { key: string; dir: string; names: string[] }[] = alone.map((p) => ({ key: p, dir: "", names: [p] }));
  for (const [dir, names] of groups) {
    names.sort(compareText);
    const plain = PLAIN.test(dir) ? names.filter((n) => PLAIN.test(n)) : [];
    if (plain.length >= 2) items.push({ key: dir, dir, names: plain });
    for (const n of names) if (plain.length < 2 || !PLAIN.test(n)) items.push({ key: dir + n, dir: "", names: [dir + n] });
  }
  const lines: string[] = [];
  const rest = new Map<string, number>();
  let left = maxChars;
  let full = false;
  for (const item of sortForeground(items, (i) => i.key)) {
    const shown: string[] = [];
    if (!full) {
      // A group's line costs its directory once, then each name and its space.
      let cost = item.dir ? item.dir.length + 1 : 0;
      for (const n of item.names) {
        const c = item.dir ? n.length + 1 : alonePath(n).length + 1;
        if (cost + c > left && (lines.length || shown.length)) {
          full = true;
          break;
        }
        cost += c;
        shown.push(n);
      }
      left -= cost;
    }
    if (shown.length) lines.push(item.dir ? `${item.dir} ${shown.join(" ")}` : alonePath(shown[0]!));
    if (shown.length < item.names.length) {
      const where = item.dir || parentOf(item.names[0]!);
      rest.set(where, (rest.get(where) ?? 0) + item.names.length - shown.length);
    }
  }
  return { lines, rest: [...rest] };
}

/**
 * A directory with one name of its own joins its parent's group as `sub/name`
 * (`src/app/api/ auth/route.ts users/route.ts`), deepest first, so a chain of
 * such directories costs its prefix once. A name the parent's group could not
 * hold (whitespace, a leading quote) stays where it is.
 */
function foldSingles(groups: Map<string, string[]>): void {
  const depth = (dir: string) => dir.split("/").length;
  // Level by level from the deepest: a parent made by a fold is folded in its turn.
  for (let level = Math.max(0, ...[...groups.keys()].map(depth)); level > 2; level--) {
    for (const dir of [...groups.keys()].filter((d) => depth(d) === level).sort(compareText)) {
      const names = groups.get(dir)!;
      if (names.length !== 1 || !PLAIN.test(dir) || !PLAIN.test(names[0]!)) continue;
      const cut = dir.slice(0, -1).lastIndexOf("/");
      const parent = dir.slice(0, cut + 1);
      groups.delete(dir);
      const joined = dir.slice(cut + 1) + names[0]!;
      const siblings = groups.get(parent);
      if (siblings) siblings.push(joined);
      else groups.set(parent, [joined]);
    }
  }
}

function parentOf(path: string): string {
  const slash = path.replace(/\/+$/, "").lastIndexOf("/");
  return slash < 0 ? "./" : path.slice(0, slash + 1);
}
