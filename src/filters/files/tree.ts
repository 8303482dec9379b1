// `tree`: the tree art (`├── `, `│   `, `└── ` and the ASCII `|-- `, "`-- ")
// becomes two spaces per level; names stay as tree printed them, with `-F`
// added so dirs end in `/` (executables `*`, FIFOs `|`, sockets `=`, symlinks
// `name -> target`). Root lines, errors (`dir [error opening dir]`) and the
// summary line stay. An entry at depth d is indented by 2·d spaces under its
// root line. JSON, XML and HTML output, and `-i` (no art), pass through. A folder of dependencies,
// build output, caches or version control met inside the tree keeps its line;
// what is below it is counted on one marker line under it. Once the entries
// shown fill the list budget (`[limits] list_tokens`), the rest is counted
// where it was cut. Every count has a recall handle.
import { limitsOf } from "../budget.js";
import { ErrorLines } from "../kit.js";
import { omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { given, inBackground, parseArgs, toolArgs, withFlags } from "./common.js";

const SPEC = {
  shortWithValue: "LPIHTo",
  longWithValue: ["charset", "filelimit", "timefmt", "sort", "hintro", "houtro", "infile", "gitfile", "prune-pattern"],
};

/** The art that continues an ancestor's branch, each one level. */
const CONTINUE = ["│\u00a0\u00a0 ", "│   ", "|   ", "    ", "\u00a0\u00a0\u00a0 "];
/** The art that ends in an entry. */
const CONNECT = ["├── ", "└── ", "|-- ", "`-- "];

function passThrough(input: FilterInput): boolean {
  return given(parseArgs(toolArgs(input), SPEC), "JXHoi", ["help", "version"]);
}

export const tree: Filter = {
  id: "tree",
  // A CR is part of a name.
  lineForm: () => "text",
  prepare(input) {
    const p = parseArgs(toolArgs(input), SPEC);
    return passThrough(input) || given(p, "F") ? input.argv : withFlags(input, ["-F"]);
  },
  start(input, ctx): FilterRun {
    const { recall } = ctx;
    const budget = limitsOf(ctx).list;
    const skip = passThrough(input);
    const err = new ErrorLines();
    const out: string[] = [];
    let chars = 0;
    let full = false;
    let changed = false;
    /** The run of entries hidden since the last line kept, and whether all were entries. */
    let hidden = 0;
    let hiddenOther = false;
    let keptAfterCap = 0;
    /** A background folder whose contents are being counted: its depth and the entries below it. */
    let folded: { depth: number; count: number } | null = null;
    const flush = () => {
      if (folded) {
        if (folded.count) out.push("  ".repeat(folded.depth + 1) + omitted(folded.count, "entries", recall));
        folded = null;
      }
      if (!hidden) return;
      out.push(omitted(hidden, hiddenOther ? "lines" : "entries", recall));
      hidden = 0;
      hiddenOther = false;
    };
    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (skip) return;
        const entry = treeEntry(text);
        if (entry) {
          changed = true;
          if (folded && entry.depth > folded.depth) {
            folded.count++;
            return;
          }
          if (folded) flush();
          const line = "  ".repeat(entry.depth) + entry.name;
          if (full || chars + line.length + 1 > budget) {
            full = true;
            hidden++;
            return;
          }
          chars += line.length + 1;
          out.push(line);
          if (entry.name.endsWith("/") && inBackground(entry.name.slice(0, -1))) folded = { depth: entry.depth, count: 0 };
          return;
        }
        // Root lines, blank lines, the summary: kept, within a bound once entries are being cut.
        if (full && keptAfterCap >= 200) {
          hidden++;
          hiddenOther = true;
          return;
        }
        if (full) keptAfterCap++;
        flush();
        out.push(text);
      },
      end() {
        if (skip || !changed) return null;
        flush();
        return { stdout: out.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};

/** An entry line: its depth (1 for the root's children) and its name, or null. */
export function treeEntry(line: string): { depth: number; name: string } | null {
  let i = 0;
  let depth = 0;
  for (;;) {
    if (CONNECT.some((c) => line.startsWith(c, i))) return { depth: depth + 1, name: line.slice(i + 4) };
    const cont = CONTINUE.find((c) => line.startsWith(c, i));
    if (!cont) return null;
    i += cont.length;
    depth++;
  }
}
