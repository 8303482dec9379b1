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
        const out: string[] = [];
        const left = new Set<string>();
        /** The field whose value later lines may continue: its output index and its value's column. */
        let open: { at: number; column: number } | null = null;
        let table: { indent: number; cols: number[]; rows: Map<string, number>; at: number[] } | null = null;
        let skipDeeper = -1;
        for (let i = 0; i < raw.length; i++) {
          const line = raw[i]!.replace(/\s+$/, "");
          const indent = indentOf(line);
          if (skipDeeper >= 0) {
            if (line && indent > skipDeeper) continue;
            skipDeeper = -1;
          }
          if (table) {
            if (line && indent >= table.indent && !(indent === table.indent && /:$/.test(line))) {
              const row = " ".repeat(table.indent) + cells(line, table.cols).join("  ");
              const seen = table.rows.get(row);
              if (seen !== undefined) {
                table.at[seen]!++;
                continue;
              }
              table.rows.set(row, out.length);
              table.at[out.length] = 1;
              out.push(row);
              continue;
            }
            for (const [row, at] of table.rows) if (table.at[at]! > 1) out[at] = `${row} (×${table.at[at]})`;
            table = null;
          }
          if (!line) {
            open = null;
            out.push("");
            continue;
          }
          // A table: a header with a dash rule under it, or the header under `Conditions:`.
          const next = raw[i + 1] ?? "";
          const underConditions = /^\s*Conditions:$/.test(raw[i - 1] ?? "") && /^\s*Type\s{2,}Status\b/.test(line);
          if ((isRule(next) && indentOf(next) === indent && !FIELD.test(line)) || underConditions) {
            open = null;
            const cols = columns(line);
            out.push(" ".repeat(indent) + cells(line, cols).join("  "));
            if (isRule(next)) i++;
            table = { indent, cols, rows: new Map(), at: [] };
            continue;
          }
          // A line at the value's column goes on with the field's value (another label, toleration, annotation).
          if (open && indent >= open.column) {
            if (line.trim() === "kubectl.kubernetes.io/last-applied-configuration:") {
              left.add("the last-applied-configuration annotation");
              skipDeeper = indent;
              continue;
            }
            out[open.at] += `${out[open.at]!.endsWith(":") ? " " : ", "}${line.trim()}`;
            continue;
          }
          open = null;
          const f = FIELD.exec(line);
          if (f) {
            const [, pad, key, gap, value] = f;
            if (key === "Container ID" || key === "Image ID") {
              left.add(key);
              continue;
            }
            if (/^kube-api-access-\w+$/.test(key!) && value === undefined) {
              left.add("the kube-api-access token volume");
              skipDeeper = indent;
              continue;
            }
            if (value === undefined) {
              out.push(line);
              continue;
            }
            // `Annotations:  kubectl.kubernetes.io/last-applied-configuration:` opens on the field's own line.
            if (/^kubectl\.kubernetes\.io\/last-applied-configuration:\s*$/.test(value)) {
              // Its JSON follows, deeper than the value's column.
              left.add("the last-applied-configuration annotation");
              out.push(`${pad}${key}:`);
              const column = pad!.length + key!.length + 1 + gap!.length;
              open = { at: out.length - 1, column };
              skipDeeper = column;
              continue;
            }
            out.push(`${pad}${key}: ${value}`);
            open = { at: out.length - 1, column: pad!.length + key!.length + 1 + gap!.length };
            continue;
          }
          if (/^\s*\/var\/run\/secrets\/kubernetes\.io\/serviceaccount from kube-api-access-\w+ \(ro\)$/.test(line)) {
            left.add("the kube-api-access token volume");
            continue;
          }
          out.push(line);
        }
        if (table) for (const [row, at] of table.rows) if (table.at[at]! > 1) out[at] = `${row} (×${table.at[at]})`;
        while (out.length && out[out.length - 1] === "") out.pop();
        if (left.size) out.push(`(${[...left].join(", ")} left out [rtk recall ${ctx.recall.id()}])`);
        const stdout = linesText(out);
        return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
      },
    };
  },
};
