// `psql` and `mysql` result tables without their padding and borders: every
// cell of every row as the server sent it, the cells of a row joined by ` | `
// (the header's too), psql's `(N rows)` and mysql's `N rows in set` kept:
//
//   id | customer | status | total
//   1 | farah.k@example.com | paid | 42.19
//   (64 rows)
//
// Past the list budget a table keeps its first and last rows with the exact
// count between behind a recall marker. Every other line (a command tag such
// as `INSERT 0 3`, `\d`'s footers, a title) stays as printed, where it stood;
// stderr (errors with their `LINE 1:` and caret, notices) stays whole. A cell
// that spans lines (psql's `+` continuation, a raw newline in mysql's box)
// makes the whole output print as the tool printed it. Output the user shaped
// (unaligned, tuples only, CSV, HTML, expanded, batch, XML) passes through.
import { limitsOf } from "../budget.js";
import { ErrorLines } from "../kit.js";
import { linesText, omitted, type Filter, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { allArgs } from "./common.js";

/** The cells between bar positions; null when a bar is missing or a cell continues on the next line. */
function cellsAt(line: string, bars: readonly number[], psql: boolean): string[] | null {
  for (const p of bars) {
    if (line[p] !== "|") return null;
    // psql marks a cell that goes on in the next line with `+` before its bar (or at the line's end).
    if (psql && line[p - 1] === "+") return null;
  }
  if (psql && /\+$/.test(line)) return null;
  const cells: string[] = [];
  const edges = psql ? [-1, ...bars, line.length] : bars;
  for (let i = 0; i + 1 < edges.length; i++) cells.push(line.slice(edges[i]! + 1, edges[i + 1]!).trim());
  return cells;
}

const barsOf = (rule: string) => [...rule].flatMap((c, i) => (c === "+" ? [i] : []));
const joined = (cells: readonly string[]) => cells.join(" | ").trimEnd();

/** One table as read: its rows' compact lines (the header's first). */
interface Table {
  rows: string[];
}

type Item = string | Table;

/** The output's lines with each table's rows in place, its long tables cut to their head and tail within `budget`. */
function render(items: readonly Item[], budget: number, recall: RecallRef): string[] {
  const out: string[] = [];
  const rowChars = items.reduce((n, it) => n + (typeof it === "string" ? 0 : it.rows.reduce((m, r) => m + r.length + 1, 0)), 0);
  for (const it of items) {
    if (typeof it === "string") {
      out.push(it);
      continue;
    }
    if (rowChars <= budget) {
      out.push(...it.rows);
      continue;
    }
    // Each table gets the budget in proportion to its size: half for its first rows, half for its last.
    const share = (budget * it.rows.reduce((m, r) => m + r.length + 1, 0)) / rowChars;
    // The header row stays.
    let head = Math.min(1, it.rows.length);
    for (let used = head ? it.rows[0]!.length + 1 : 0; head < it.rows.length && used + it.rows[head]!.length + 1 <= share / 2; head++) used += it.rows[head]!.length + 1;
    let tail = it.rows.length;
    for (let used = 0; tail > head && used + it.rows[tail - 1]!.length + 1 <= share / 2; tail--) used += it.rows[tail - 1]!.length + 1;
    out.push(...it.rows.slice(0, head));
    if (tail > head) out.push(omitted(tail - head, tail - head === 1 ? "row" : "rows", recall));
    out.push(...it.rows.slice(tail));
  }
  return out;
}

interface Reader {
  /** Takes one line; false when the output is of a shape this filter must not touch. */
  line(text: string): boolean;
  items(): Item[];
}

/** psql's aligned tables: a header, a rule of `-` and `+`, rows that start with a space, then `(N rows)`. */
function psqlReader(): Reader {
  const items: Item[] = [];
  let table: { bars: number[]; rows: string[] } | null = null;
  return {
    line(text) {
      if (table) {
        const cells = text.startsWith(" ") ? cellsAt(text, table.bars, true) : null;
        if (cells) {
          table.rows.push(joined(cells));
          return true;
        }
        // A row whose cell goes on in the next line.
        if (text.startsWith(" ") && table.bars.every((p) => text[p] === "|")) return false;
        table = null;
      }
      if (/^-+(?:\+-+)*$/.test(text) && typeof items[items.length - 1] === "string") {
        const header = items[items.length - 1] as string;
        const bars = barsOf(text);
        const cells = header.length <= text.length + 1 && header.trim() ? cellsAt(header, bars, true) : null;
        if (cells) {
          table = { bars, rows: [joined(cells)] };
          items[items.length - 1] = { rows: table.rows };
          // A title (`\d`'s `Table "public.orders"`) is centred over the table: its padding goes too.
          const title = items[items.length - 2];
          if (typeof title === "string" && /^ {2,}\S/.test(title)) items[items.length - 2] = title.trim();
          return true;
        }
      }
      items.push(text);
      return true;
    },
    items: () => items,
  };
}

/** mysql's box tables: `+----+` rules around a header and around the rows. */
function mysqlReader(): Reader {
  const items: Item[] = [];
  let table: { bars: number[]; rows: string[]; rules: number } | null = null;
  return {
    line(text) {
      const rule = /^\+(?:-+\+)+$/.test(text);
      if (table) {
        if (rule && table.bars.join() === barsOf(text).join()) {
          if (++table.rules === 3) table = null;
          return true;
        }
        const cells = text.startsWith("|") ? cellsAt(text, table.bars, false) : null;
        if (cells && text.length === table.bars[table.bars.length - 1]! + 1) {
          table.rows.push(joined(cells));
          return true;
        }
        // A row that does not fill its box: a cell held a line break.
        if (text.startsWith("|") || table.rules < 2) return false;
        table = null;
      }
      if (rule) {
        table = { bars: barsOf(text), rows: [], rules: 1 };
        items.push({ rows: table.rows });
        return true;
      }
      items.push(text);
      return true;
    },
    items: () => items,
  };
}

function sqlFilter(id: string, reader: () => Reader, shaped: (input: FilterInput) => boolean): Filter {
  return {
    id,
    lineForm: () => "text",
    start(input, ctx): FilterRun {
      const passThrough = shaped(input);
      const r = reader();
      const errors = new ErrorLines();
      let chars = 0;
      let broken = false;
      return {
        line(stream, text) {
          if (stream === "err") return errors.add(text);
          if (passThrough || broken) return;
          chars += text.length + 1;
          if (!r.line(text)) broken = true;
        },
        end() {
          const items = r.items();
          if (passThrough || broken || !items.some((it) => typeof it !== "string")) return null;
          const stdout = linesText(render(items, limitsOf(ctx).list, ctx.recall));
          return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
        },
      };
    },
  };
}

/**
 * Whether a short flag among `letters` stands in a cluster (`-qAt`) before
 * the first letter that takes a value (`-c…`), or a long option in `longs`
 * is given: the words after a value-taking option are its value, not flags.
 */
function flagged(args: readonly string[], letters: string, valued: string, longs: readonly string[], joinedOnly = ""): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (a.startsWith("--")) {
      if (longs.some((l) => a === l || a.startsWith(`${l}=`))) return true;
      continue;
    }
    if (!/^-[a-zA-Z]/.test(a)) continue;
    for (let j = 1; j < a.length; j++) {
      if (letters.includes(a[j]!)) return true;
      if (joinedOnly.includes(a[j]!)) break;
      if (valued.includes(a[j]!)) {
        if (j === a.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

export const psql = sqlFilter("sql.psql", psqlReader, (input) =>
  flagged(allArgs(input), "AtHxPo", "cdfhpUvFRLT", ["--no-align", "--tuples-only", "--csv", "--html", "--expanded", "--pset", "--output", "--field-separator", "--record-separator"]),
);

// mysql's `-p` takes its password joined only; `-e`, `-h`, `-u`, `-D`, `-P`, `-S` take the next word.
export const mysql = sqlFilter("sql.mysql", mysqlReader, (input) => flagged(allArgs(input), "BEXHsr", "ehuDPS", ["--batch", "--vertical", "--xml", "--html", "--silent", "--raw"], "p"));
