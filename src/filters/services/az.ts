// The Azure CLI's table output (`-o table`, `--output table`): a header, a
// rule of dashes under each column, the rows. Read by the rule's columns and
// compacted as the other tools' tables are (rows alike but for their name on
// one line, an empty cell `-`). JSON (the default), YAML, TSV and anything
// else print as they are; stderr is kept whole.
//
// `az deployment … create` prints the whole deployment resource as indented
// JSON (every dependency, provider and output resource, nulls included): a
// fifth of its tokens is the layout. Its default output prints minified —
// the whitespace between tokens goes, every key, string and number stays as
// printed, so it parses to the same value. An output the user chose
// (`-o`, `--query`) prints as it is.
import { limitsOf } from "../budget.js";
import { omitted } from "../types.js";
import { allArgs, hasOption, optionValue, wholeStdout } from "./common.js";
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

/** JSON text without the whitespace between its tokens (strings and numbers as written); null when the text is not one JSON value. */
export function minifiedJson(text: string): string | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") out += c;
  }
  return out;
}

export const azDeployment = wholeStdout("az.deployment", (input) => {
  const args = allArgs(input);
  if (optionValue(args, ["-o", "--output"]) !== null || hasOption(args, ["--query"])) return null;
  return (lines) => {
    const json = minifiedJson(lines.join("\n"));
    return json === null ? null : [json];
  };
});
