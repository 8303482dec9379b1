// The AWS CLI. `aws s3 cp|sync|mv|rm`: the progress lines (`Completed 3.1
// MiB/9.0 MiB (2.0 MiB/s) with 12 file(s) remaining`) go; each transfer line
// stays, those of one kind between the same two folders said once for all:
//
//   upload ./dist/ → s3://shop-web/ (42): index.html, assets/app.js, …
//
// (a delete's or a single path's line as it is); failures (`upload failed:`),
// warnings and every other line stay as printed, where they stood.
// `--output table`: the box drawing goes — a title as `Title:`, a row's cells
// apart by ` | `, nested tables indented by their depth, every cell kept.
// JSON and text output (the default and `--output text`) are the agent's to
// parse: printed as they are. stderr is kept whole.
import { limitsOf } from "../budget.js";
import { omitted, type RecallRef } from "../types.js";
import { allArgs, optionValue, wholeStdout } from "./common.js";

const PROGRESS = /^Completed (?:[\d.]+ \w+\/~?[\d.]+ \w+ \([\d.]+ \w+\/s\)|\d+ file\(s\)) with ~?\d+ file\(s\) remaining\s*$/;
const TRANSFER = /^(upload|download|copy|move|delete): (\S+)(?: to (\S+))?$/;

/** The longest ending two paths share, starting after a `/`: the file's path below both folders. */
function sharedTail(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  let tail = a.slice(a.length - i);
  const slash = tail.indexOf("/");
  if (a.length - i > 0 && a[a.length - i - 1] !== "/") tail = slash >= 0 ? tail.slice(slash + 1) : "";
  return tail;
}

function transfers(lines: readonly string[], budget: number, recall: RecallRef): string[] | null {
  const out: (string | { kind: string; from: string; to: string; names: string[] })[] = [];
  const groups = new Map<string, { kind: string; from: string; to: string; names: string[] }>();
  let any = false;
  for (const line of lines) {
    if (PROGRESS.test(line)) {
      any = true;
      continue;
    }
    const m = TRANSFER.exec(line);
    const tail = m && m[3] ? sharedTail(m[2]!, m[3]) : "";
    if (!m || !m[3] || !tail) {
      if (m) any = true;
      out.push(line);
      continue;
    }
    any = true;
    const from = m[2]!.slice(0, m[2]!.length - tail.length);
    const to = m[3].slice(0, m[3].length - tail.length);
    const key = `${m[1]} ${from} ${to}`;
    const g = groups.get(key);
    if (g) g.names.push(tail);
    else {
      const n = { kind: m[1]!, from, to, names: [tail] };
      groups.set(key, n);
      out.push(n);
    }
  }
  if (!any) return null;
  let used = 0;
  return out.map((o) => {
    if (typeof o === "string") return o;
    if (o.names.length === 1) return `${o.kind}: ${o.from}${o.names[0]} to ${o.to}${o.names[0]}`;
    // Past the list budget the names still to come are counted.
    let shown = 0;
    while (shown < o.names.length && used + o.names[shown]!.length + 2 <= budget) used += o.names[shown++]!.length + 2;
    const more = o.names.length - shown;
    return `${o.kind} ${o.from} → ${o.to} (${o.names.length}): ${o.names.slice(0, shown).join(", ")}${more ? `${shown ? " " : ""}${omitted(more, more === 1 ? "file" : "files", recall)}` : ""}`;
  });
}

/** A line of a box-drawn table: its depth (the bars before it) and its cells; a rule line is null. */
function boxLine(line: string): { depth: number; cells: string[] } | null | "other" {
  if (/^[|+]*-[-+|]*$/.test(line)) return null;
  const m = /^(\|+)(.*?)(\|+)$/.exec(line);
  if (!m || m[1]!.length !== m[3]!.length) return "other";
  return { depth: m[1]!.length, cells: m[2]!.split("|").map((c) => c.trim()) };
}

function table(lines: readonly string[]): string[] | null {
  const out: string[] = [];
  let rows = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    const b = boxLine(line);
    if (b === "other") return null;
    if (b === null) continue;
    rows++;
    const indent = "  ".repeat(b.depth - 1);
    // A title: one cell across the table, centred.
    out.push(b.cells.length === 1 ? `${indent}${b.cells[0]}:` : `${indent}${b.cells.join(" | ").trimEnd()}`);
  }
  return rows ? out : null;
}

export const aws = wholeStdout("aws", (input, ctx) => {
  const tableOut = optionValue(allArgs(input), ["--output"]) === "table";
  const s3 = input.argv[input.subIndex] === "s3";
  return (lines) => (tableOut ? table(lines) : s3 ? transfers(lines, limitsOf(ctx).list, ctx.recall) : null);
});
