// `find`: every path, grouped by directory so a shared prefix is printed once.
//
// The compact form, line by line (every path find printed is recoverable):
//   - A line at column 0 that is followed by lines indented by two spaces is a
//     directory header `<dir>/`; each indented line `  <name>` is the path
//     `<dir>/<name>`. The header itself is not a result: a directory find
//     printed appears as an entry of its own parent (or as a line of its own).
//   - Any other line at column 0 is a path as find printed it.
//   - A leading `./` is dropped (`./src/a.ts` → `src/a.ts`); `.` stays, and so
//     does the `./` of a name that starts with a space.
// Paths are sorted (directories by component, names within a directory),
// which also makes the form independent of the file system's order. A
// directory's entries are grouped only where that is shorter than the full
// paths. Errors (`find: …: Permission denied`) stay on stderr. Past MAX_PATHS
// the rest is counted, with a recall handle. Output that is not one path per
// line (`-printf`, `-print0`, `-ls`, actions) passes through.
import { omitted, type Filter, type FilterRun } from "../types.js";
import { ErrorLines, compareText, comparePaths, toolArgs } from "./common.js";

const MAX_PATHS = 2000;

const OTHER_OUTPUT = new Set(["-printf", "-fprintf", "-print0", "-fprint", "-fprint0", "-ls", "-fls", "-exec", "-execdir", "-ok", "-okdir", "-delete", "--help", "--version", "-help", "-version"]);

export const find: Filter = {
  id: "find",
  start(input, { recall }): FilterRun {
    const skip = toolArgs(input).some((a) => OTHER_OUTPUT.has(a));
    const err = new ErrorLines();
    const paths: string[] = [];
    let hidden = 0;
    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (skip) return;
        if (paths.length >= MAX_PATHS) hidden++;
        else paths.push(text);
      },
      end() {
        if (skip || !paths.length) return null;
        const lines = groupPaths(paths);
        if (hidden) lines.push(omitted(hidden, "paths", recall));
        return { stdout: lines.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};

/** The grouped form of a list of paths (see the comment at the top). */
export function groupPaths(raw: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  const alone: string[] = [];
  for (const r of raw) {
    // `./ x` keeps its `./`: a path must not start with the indentation of an entry.
    const path = r.startsWith("./") && r.length > 2 && r[2] !== " " ? r.slice(2) : r;
    const slash = path.lastIndexOf("/");
    // Start points (`.`, `src/`, `/`) and top-level names have no directory to share.
    if (slash < 0 || slash === path.length - 1) {
      alone.push(path);
      continue;
    }
    const dir = path.slice(0, slash + 1);
    const names = groups.get(dir);
    if (names) names.push(path.slice(slash + 1));
    else groups.set(dir, [path.slice(slash + 1)]);
  }
  const items: { key: string; lines: string[] }[] = alone.map((p) => ({ key: p, lines: [p] }));
  for (const [dir, names] of groups) {
    names.sort(compareText);
    const full = names.reduce((n, name) => n + dir.length + name.length + 1, 0);
    const grouped = dir.length + 1 + names.reduce((n, name) => n + name.length + 3, 0);
    // A header line costs a token or two of its own: group only where that clearly pays.
    if (names.length > 2 && grouped + 8 < full) items.push({ key: dir, lines: [dir, ...names.map((n) => `  ${n}`)] });
    else for (const n of names) items.push({ key: dir + n, lines: [dir + n] });
  }
  items.sort((a, b) => comparePaths(a.key, b.key));
  return items.flatMap((i) => i.lines);
}
