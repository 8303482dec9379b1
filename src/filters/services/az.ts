// The Azure CLI's table output (`-o table`, `--output table`): a header, a
// rule of dashes under each column, the rows. Read by the rule's columns and
// compacted as the other tools' tables are (rows alike but for their name on
// one line, an empty cell `-`). JSON (the default), YAML, TSV and anything
// else print as they are; stderr is kept whole.
import { limitsOf } from "../budget.js";
import { omitted } from "../types.js";
import { allArgs, optionValue, wholeStdout } from "./common.js";
import { cellsOf, render, type Column, type Table } from "./table.js";

/** The columns a dash rule marks: where each run of dashes starts, named by the header above it. */
function columnsOfRule(header: string, rule: string): Column[] | null {
  const cols: Column[] = [];
  for (const m of rule.matchAll(/-+/g)) {
    const name = header.slice(m.index!, m.index! + m[0].length).trim();
    if (!name || (m.index! > 0 && header[m.index! - 1] !== " ")) return null;
    cols.push({ name, start: m.index! });
  }
  return cols.length ? cols : null;
}

export const azTable = wholeStdout("table.az", (input, ctx) => {
  if (optionValue(allArgs(input), ["-o", "--output"]) !== "table") return null;
  return (lines) => {
    if (lines.length < 3 || !/^-+(?: +-+)*$/.test(lines[1]!)) return null;
    const cols = columnsOfRule(lines[0]!, lines[1]!);
    if (!cols) return null;
    const t: Table = { header: lines[0]!, cols, rows: [] };
    for (const l of lines.slice(2)) {
      const cells = l.trim() ? cellsOf(l, cols) : null;
      if (!cells) return null;
      t.rows.push(cells);
    }
    return render(
      [t],
      { identity: ["Name"], drop: [], shortId: [] },
      limitsOf(ctx).list,
      (n) => omitted(n, n === 1 ? "row" : "rows", ctx.recall),
      () => ctx.recall.id(),
    );
  };
});
