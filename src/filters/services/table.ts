// The column tables of `docker ps`/`images`, `docker compose ps`, `podman`,
// `kubectl get` and `helm list`: the columns that carry nothing an agent acts
// on go (a container's COMMAND and CREATED, a resource's AGE, a release's
// UPDATED time; named once in the header line), long IDs are cut to the 12
// characters docker itself shows, and rows alike in every kept column but
// their identity are one line:
//
//   READY  STATUS  RESTARTS: NAME (AGE left out)
//   1/1  Running  0 (12): api-7d9f8b6c5d-x2k4p, api-7d9f8b6c5d-9xk2q, …
//   0/1  CrashLoopBackOff  7 (2m ago): worker-5f6d7c8b9-abcde
//
// An empty cell reads `-`. Several tables (`kubectl get all`) each keep their
// own header. Output the user shaped (`--format`, `-o json|yaml|name|…`, `-q`)
// passes through, as does anything that is not a table; stderr is kept whole.
import { limitsOf } from "../budget.js";
import { ErrorLines } from "../kit.js";
import { linesText, omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { argsAfterSub, hasOption, optionValue } from "./common.js";

/** How one tool's table is read. */
export interface TableRules {
  /** Columns that name a row: shown after the values, several rows' joined by `, `. */
  identity: readonly string[];
  /** Columns left out (named in the header line). */
  drop: readonly string[];
  /** Columns whose values are cut to 12 characters (a full 64-digit ID). */
  shortId: readonly string[];
  /** Columns left out when another names the row already (a container's ID beside its name). */
  redundant?: Readonly<Record<string, readonly string[]>>;
  /** Columns of published ports, where an IPv6 twin of a `0.0.0.0` port is said once for all. */
  ports?: readonly string[];
  /** Names in a group that share a prefix up to a `-` are written `api-7d9f8b6c5d-{x2k4p,9xk2q}`. */
  braces?: boolean;
}

export interface Column {
  name: string;
  start: number;
}

/** A header: upper-case column names apart by two spaces or more (or tabs). */
const HEADER = /^[A-Z][A-Z0-9()_/.%-]*(?: [A-Z0-9()_/.%-]+)*(?:(?: {2,}|\s*\t\s*)[A-Z][A-Z0-9()_/.%-]*(?: [A-Z0-9()_/.%-]+)*)+\s*$/;

function columnsOf(header: string): Column[] {
  const cols: Column[] = [];
  const re = /[^\s\t](?:[^\t ]| (?! ))*/g;
  for (const m of header.matchAll(re)) cols.push({ name: m[0], start: m.index! });
  return cols;
}

/** The cells of a row by the header's positions; null when the row does not fit them (a cell ran into the next). */
export function cellsOf(row: string, cols: readonly Column[]): string[] | null {
  if (row.includes("\t")) {
    const parts = row.split("\t").map((c) => c.trim());
    while (parts.length > cols.length && parts[parts.length - 1] === "") parts.pop();
    return parts.length === cols.length ? parts : null;
  }
  const cells: string[] = [];
  for (let i = 0; i < cols.length; i++) {
    const start = cols[i]!.start;
    const end = i + 1 < cols.length ? cols[i + 1]!.start : row.length;
    if (start > 0 && start < row.length && row[start - 1] !== " ") return null;
    cells.push(row.slice(start, Math.max(start, end)).trim());
  }
  return cells;
}

export interface Table {
  header: string;
  cols: Column[];
  rows: string[][];
}

export interface TableFilterSpec {
  id: string;
  rules: (input: FilterInput) => TableRules;
  /** The user chose the output's shape: it passes through. */
  shaped: (input: FilterInput) => boolean;
  /** It runs as it prints (a watch): the tool keeps the terminal. */
  follows?: (input: FilterInput) => boolean;
  /** What a row is called in an omission marker. */
  rowWord: string;
}

export function tableFilter(spec: TableFilterSpec): Filter {
  return {
    id: spec.id,
    ...(spec.follows && { inherits: spec.follows }),
    start(input, ctx): FilterRun {
      const passThrough = spec.shaped(input);
      const rules = spec.rules(input);
      const errors = new ErrorLines();
      const reader = new TableReader();
      let broken = false;
      let chars = 0;
      return {
        line(stream, text) {
          if (stream === "err") return errors.add(text);
          if (passThrough || broken) return;
          chars += text.length + 1;
          // A line that is not a row of a table: the output is not what this filter reads.
          if (!reader.add(text)) broken = true;
        },
        end() {
          // An empty table is its header: nothing to compact.
          if (passThrough || broken || !reader.tables.some((t) => t.rows.length)) return null;
          const out = render(
            reader.tables,
            rules,
            limitsOf(ctx).list,
            (n) => omitted(n, n === 1 ? spec.rowWord : `${spec.rowWord}s`, ctx.recall),
            () => ctx.recall.id(),
          );
          const stdout = linesText(out);
          // Never longer than the tool's own table: then that is printed.
          return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
        },
      };
    },
  };
}

export function render(tables: readonly Table[], rules: TableRules, budget: number, marker: (n: number) => string, recall: () => string): string[] {
  const out: string[] = [];
  let used = 0;
  let hidden = 0;
  for (const t of tables) {
    const names = t.cols.map((c) => c.name);
    const ids = names.map((n, i) => (rules.identity.includes(n) ? i : -1)).filter((i) => i >= 0);
    const idx = ids.length ? [...ids] : [0];
    const redundant = (n: string) => rules.redundant?.[n]?.some((other) => names.includes(other)) ?? false;
    const dropped = names.map((n, i) => ((rules.drop.includes(n) || redundant(n)) && (!idx.includes(i) || redundant(n)) ? i : -1)).filter((i) => i >= 0);
    for (const i of dropped) if (idx.includes(i)) idx.splice(idx.indexOf(i), 1);
    // A column that says `<none>` (or nothing) in every row is said once.
    const empty = names
      .map((_, i) => i)
      .filter((i) => !idx.includes(i) && !dropped.includes(i) && t.rows.length > 1 && (t.rows[0]![i] === "<none>" || t.rows[0]![i] === "") && t.rows.every((r) => r[i] === t.rows[0]![i]));
    const values = names.map((_, i) => i).filter((i) => !idx.includes(i) && !dropped.includes(i) && !empty.includes(i));
    const cut = (i: number, v: string) => (rules.shortId.includes(names[i]!) && /^(?:sha256:)?[0-9a-f]{13,}$/.test(v) ? v.replace(/^sha256:/, "").slice(0, 12) : v);
    let twins = false;
    const portsOf = (v: string) => {
      const entries = v.split(", ");
      const kept = entries.filter((e) => {
        const m = /^(?:\[::\]|::):(.+)$/.exec(e);
        return !(m && entries.includes(`0.0.0.0:${m[1]}`));
      });
      if (kept.length < entries.length) twins = true;
      return kept.join(", ");
    };
    const cell = (row: string[], i: number) => {
      const v = cut(i, row[i] ?? "");
      return (rules.ports?.includes(names[i]!) ? portsOf(v) : v) || "-";
    };
    const groups = new Map<string, string[]>();
    for (const row of t.rows) {
      const key = values.map((i) => cell(row, i)).join("  ");
      const id = idx.map((i) => cell(row, i)).join(" ");
      const g = groups.get(key);
      if (g) g.push(id);
      else groups.set(key, [id]);
    }
    const notes = [
      dropped.length ? `${dropped.map((i) => names[i]).join(", ")} left out [rtk recall ${recall()}]` : "",
      empty.length ? `${empty.map((i) => names[i]).join(", ")}: ${t.rows[0]![empty[0]!] || "-"} in every row` : "",
      twins ? "each 0.0.0.0 port also on [::]" : "",
    ].filter(Boolean);
    const head = `${values.map((i) => names[i]).join("  ")}${values.length ? ": " : ""}${idx.map((i) => names[i]).join(" ")}${notes.map((n) => ` (${n})`).join("")}`;
    if (out.length) out.push("");
    out.push(head);
    for (const [key, members] of groups) {
      const line = `${key}${members.length > 1 ? ` (${members.length})` : ""}${key ? ": " : ""}${(rules.braces ? braced(members) : members).join(", ")}`;
      if (hidden || used + line.length + 1 > budget) {
        hidden += members.length;
        continue;
      }
      used += line.length + 1;
      out.push(line);
    }
  }
  if (hidden) out.push(marker(hidden));
  return out;
}

/** Names sharing a prefix up to their last `-` as `prefix{a,b}` (in order of the prefix's first name); a name alone as it is. */
function braced(names: readonly string[]): string[] {
  const byPrefix = new Map<string, string[]>();
  for (const n of names) {
    const dash = n.lastIndexOf("-");
    const prefix = dash > 0 && !/[\s{},]/.test(n) ? n.slice(0, dash + 1) : n;
    const list = byPrefix.get(prefix);
    if (list) list.push(n);
    else byPrefix.set(prefix, [n]);
  }
  return [...byPrefix].map(([prefix, list]) => (list.length > 1 ? `${prefix}{${list.map((n) => n.slice(prefix.length)).join(",")}}` : list[0]!));
}

// ---------------------------------------------------------------- the tools

const CONTAINER_RULES: TableRules = {
  identity: ["NAMES", "NAME", "CONTAINER ID"],
  drop: ["COMMAND", "CREATED"],
  shortId: ["CONTAINER ID", "IMAGE ID"],
  redundant: { "CONTAINER ID": ["NAMES", "NAME"] },
  ports: ["PORTS"],
};
const IMAGE_RULES: TableRules = { identity: ["REPOSITORY", "TAG"], drop: ["CREATED"], shortId: ["IMAGE ID"] };

/** docker's and podman's boolean short options, `-q` among them (`-aq`). */
const QUIET = /^-[a-zA-Z]*q[a-zA-Z]*$/;

export const dockerTable = tableFilter({
  id: "table.docker",
  rowWord: "row",
  shaped: (input) => {
    const args = argsAfterSub(input);
    return args.some((a) => QUIET.test(a)) || hasOption(args, ["--format", "--quiet", "--no-trunc", "--tree"]);
  },
  rules: (input) => {
    const words = input.argv.slice(input.subIndex);
    return words[0] === "images" || words[0] === "image" ? IMAGE_RULES : CONTAINER_RULES;
  },
});

export const kubectlTable = tableFilter({
  id: "table.kubectl",
  rowWord: "row",
  shaped: (input) => {
    const args = argsAfterSub(input);
    const o = optionValue(args, ["-o", "--output"]);
    return (o !== null && o !== "wide") || hasOption(args, ["--show-labels", "-L", "--label-columns"]);
  },
  follows: (input) => hasOption(argsAfterSub(input), ["-w", "--watch", "--watch-only"]),
  rules: () => KUBECTL_RULES,
});

export const helmTable = tableFilter({
  id: "table.helm",
  rowWord: "release",
  shaped: (input) => {
    const args = argsAfterSub(input);
    return hasOption(args, ["-o", "--output", "-q", "--short"]);
  },
  rules: () => ({ identity: ["NAME", "NAMESPACE"], drop: ["UPDATED"], shortId: [] }),
});

/**
 * One block of column tables (a `helm status` resource list) compacted as the
 * tools' own tables are; null when a line of it is not a table's row.
 */
export function compactTables(lines: readonly string[], rules: TableRules, budget: number, marker: (n: number) => string, recall: () => string): string[] | null {
  const reader = new TableReader();
  for (const text of lines) if (!reader.add(text)) return null;
  return reader.tables.some((t) => t.rows.length) ? render(reader.tables, rules, budget, marker, recall) : null;
}

/** Column tables, each a header and its rows, apart by blank lines. */
class TableReader {
  readonly tables: Table[] = [];
  private current: Table | null = null;

  /** Reads one line; false when it is neither a header, a row of the table above it, nor blank. */
  add(text: string): boolean {
    if (text.trim() === "") {
      this.current = null;
      return true;
    }
    if (!this.current && HEADER.test(text)) {
      this.current = { header: text, cols: columnsOf(text), rows: [] };
      this.tables.push(this.current);
      return true;
    }
    const cells = this.current && cellsOf(text, this.current.cols);
    if (!this.current || !cells) return false;
    this.current.rows.push(cells);
    return true;
  }
}

/** kubectl's rules for its resource tables (`helm status` shows the same). */
export const KUBECTL_RULES: TableRules = { identity: ["NAMESPACE", "NAME"], drop: ["AGE"], shortId: [], braces: true };
