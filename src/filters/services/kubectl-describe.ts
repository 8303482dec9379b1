// `kubectl describe`: every field as kubectl printed it, without the padding
// that aligns the values (`Restart Count:  3` → `Restart Count: 3`), a value
// that goes on over several lines (labels, tolerations) on one line joined by
// `, `; the tables inside (Conditions, Events, a node's pods and resources)
// without their padding and dash rules, cells apart by two spaces, an empty
// cell `-`, identical rows (an event repeated in several objects) once with
// `(×N)`. Left out, named once at the end behind the recall handle: container
// and image IDs (the image's name stays), the `last-applied-configuration`
// annotation (the applied manifest again, as JSON), and the service account
// token volume every pod has (`kube-api-access-…`) with its mount.
// `-o`/`--output` is not a describe option; anything kubectl prints that is
// not of this shape stays as it is; stderr is kept whole.
import { ErrorLines } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";

const indentOf = (line: string) => line.length - line.trimStart().length;

/** `Key:   value` at any depth; the key has no run of two spaces. */
const FIELD = /^(\s*)([^\s:][^:]*?):(?:( {2,}|\t+| )(\S.*?))?\s*$/;

/** Column starts of a table header: words apart by two spaces or more. */
function columns(header: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < header.length; i++) if (header[i] !== " " && (i === 0 || (header[i - 1] === " " && header[i - 2] === " ") || indentOf(header) === i)) out.push(i);
  return [...new Set(out)].sort((a, b) => a - b);
}

function cells(row: string, cols: readonly number[]): string[] {
  return cols.map((s, i) => row.slice(s, cols[i + 1] ?? row.length).trim() || "-");
}

/** A dash rule under a header: `----  ------` at the header's columns. */
const isRule = (line: string) => /^\s*-+(?:\s+-+)*\s*$/.test(line);

export const kubectlDescribe: Filter = {
  id: "kubectl.describe",
  start(_input, ctx): FilterRun {
    const raw: string[] = [];
    const errors = new ErrorLines();
    return {
      line(stream, text) {
        if (stream === "err") errors.add(text);
        else raw.push(text);
      },
      end() {
        const chars = raw.reduce((n, l) => n + l.length + 1, 0);
        if (!raw.some((l) => /^Name:\s/.test(l))) return null;
        const { out, left } = new DescribeReader().read(raw);
        if (left.size) out.push(`(${[...left].join(", ")} left out [rtk recall ${ctx.recall.id()}])`);
        const stdout = linesText(out);
        return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
      },
    };
  },
};

interface Table {
  indent: number;
  cols: number[];
  /** Each row's text and where it stands in the output. */
  rows: Map<string, number>;
  /** How many times the row at each output index was read. */
  at: number[];
}

/** Reads describe's lines in order into their compact form (`out`), naming what it leaves out (`left`). */
class DescribeReader {
  readonly out: string[] = [];
  readonly left = new Set<string>();
  /** The field whose value later lines may continue: its output index and its value's column. */
  private open: { at: number; column: number } | null = null;
  private table: Table | null = null;
  /** Lines deeper than this indent go (a value left out); -1 when none. */
  private skipDeeper = -1;

  read(raw: readonly string[]): this {
    for (let i = 0; i < raw.length; i++) {
      const line = raw[i]!.replace(/\s+$/, "");
      const indent = indentOf(line);
      if (this.skipDeeper >= 0) {
        if (line && indent > this.skipDeeper) continue;
        this.skipDeeper = -1;
      }
      if (this.table) {
        if (this.tableRow(this.table, line, indent)) continue;
        this.closeTable(this.table);
      }
      if (!line) {
        this.open = null;
        this.out.push("");
        continue;
      }
      // A table: a header with a dash rule under it, or the header under `Conditions:`.
      const next = raw[i + 1] ?? "";
      const underConditions = /^\s*Conditions:$/.test(raw[i - 1] ?? "") && /^\s*Type\s{2,}Status\b/.test(line);
      if ((isRule(next) && indentOf(next) === indent && !FIELD.test(line)) || underConditions) {
        this.open = null;
        const cols = columns(line);
        this.out.push(" ".repeat(indent) + cells(line, cols).join("  "));
        if (isRule(next)) i++;
        this.table = { indent, cols, rows: new Map(), at: [] };
        continue;
      }
      this.fieldOrLine(line, indent);
    }
    if (this.table) this.closeTable(this.table);
    while (this.out.length && this.out[this.out.length - 1] === "") this.out.pop();
    return this;
  }

  /** A row of the table, written once however often it comes; false for a line past the table. */
  private tableRow(table: Table, line: string, indent: number): boolean {
    if (!line || indent < table.indent || (indent === table.indent && /:$/.test(line))) return false;
    const row = " ".repeat(table.indent) + cells(line, table.cols).join("  ");
    const seen = table.rows.get(row);
    if (seen !== undefined) {
      table.at[seen]!++;
      return true;
    }
    table.rows.set(row, this.out.length);
    table.at[this.out.length] = 1;
    this.out.push(row);
    return true;
  }

  private closeTable(table: Table): void {
    for (const [row, at] of table.rows) if (table.at[at]! > 1) this.out[at] = `${row} (×${table.at[at]})`;
    this.table = null;
  }

  /** A line outside a table: the open value's continuation, a field, or a line kept as it is. */
  private fieldOrLine(line: string, indent: number): void {
    const open = this.open;
    // A line at the value's column goes on with the field's value (another label, toleration, annotation).
    if (open && indent >= open.column) {
      if (line.trim() === "kubectl.kubernetes.io/last-applied-configuration:") {
        this.left.add("the last-applied-configuration annotation");
        this.skipDeeper = indent;
        return;
      }
      this.out[open.at] += `${this.out[open.at]!.endsWith(":") ? " " : ", "}${line.trim()}`;
      return;
    }
    this.open = null;
    const f = FIELD.exec(line);
    if (f) return this.field(line, indent, f[1]!, f[2]!, f[3], f[4]);
    if (/^\s*\/var\/run\/secrets\/kubernetes\.io\/serviceaccount from kube-api-access-\w+ \(ro\)$/.test(line)) {
      this.left.add("the kube-api-access token volume");
      return;
    }
    this.out.push(line);
  }

  /** `Key:  value`, its padding gone; the fields left out are named. */
  private field(line: string, indent: number, pad: string, key: string, gap: string | undefined, value: string | undefined): void {
    if (key === "Container ID" || key === "Image ID") {
      this.left.add(key);
      return;
    }
    if (/^kube-api-access-\w+$/.test(key) && value === undefined) {
      this.left.add("the kube-api-access token volume");
      this.skipDeeper = indent;
      return;
    }
    if (value === undefined) {
      this.out.push(line);
      return;
    }
    const column = pad.length + key.length + 1 + gap!.length;
    // `Annotations:  kubectl.kubernetes.io/last-applied-configuration:` opens on the field's own line.
    if (/^kubectl\.kubernetes\.io\/last-applied-configuration:\s*$/.test(value)) {
      // Its JSON follows, deeper than the value's column.
      this.left.add("the last-applied-configuration annotation");
      this.out.push(`${pad}${key}:`);
      this.open = { at: this.out.length - 1, column };
      this.skipDeeper = column;
      return;
    }
    this.out.push(`${pad}${key}: ${value}`);
    this.open = { at: this.out.length - 1, column };
  }
}
