// What the package-manager filters share. An install-like run is read line by
// line by a dialect that says what each line is: noise to drop (counted by
// kind: progress, downloads, funding…), a package change (kept, gathered with
// the others of its kind on one line: `added: express 4.21.2, cors 2.8.5`), a
// summary (kept at the end, where `| tail` finds it), or nothing it knows
// (kept as it is: a postinstall script's output, a warning, an error). The
// dropped lines are counted exactly in one marker line with a recall handle.
import { BoundedLines, counted, noun } from "../kit.js";
import { linesText, type Filter, type FilterContext, type FilterInput, type FilterRun } from "../types.js";

export type Stream = "out" | "err";

/** What one line is. */
export type Verdict =
  /**
   * Noise, counted under this kind; `brief`, what stands for the line when the
   * dropped lines are put back rather than marked (a shorter form of it, or "" for none).
   */
  | { drop: string; brief?: string }
  /** A line to print (possibly shortened). */
  | { keep: string }
  /**
   * A package change: `change` names what happened (`added`, `removed`…), `text`
   * the package and its version; `note`, an aside the tool added to the line
   * (`(2.4.0 is available)`), left out and counted under `noteKind`.
   */
  | { change: string; text: string; note?: string; noteKind?: string }
  /** A summary line, printed after the changes. */
  | { summary: string }
  /** A blank or decorative line: dropped without a count. */
  | "skip";

export interface Dialect {
  /** Reads one line; null when the line is none of the dialect's (it is kept as it is); several verdicts when it closes something held. */
  read(text: string, stream: Stream): Verdict | readonly Verdict[] | null;
  /** Lines the dialect holds until the end (a list it was gathering), in the kept lines' place. */
  finish?(): { stream: Stream; verdict: Verdict }[];
}

/** Options that make the output a data format the filter must pass (`extra`: a tool's own, such as `npm ls -p`). */
const DATA_FORMATS = ["--json", "--parseable", "--porcelain", "--format=json", "--reporter=json"];

/** Whether the command asks for a machine format (passed through as printed). */
export function asksForData(input: FilterInput, extra: readonly string[] = []): boolean {
  const words = input.argv.slice(input.toolIndex + 1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--") return false;
    if (DATA_FORMATS.includes(w) || extra.includes(w)) return true;
    if ((w === "--format" || w === "--output" || w === "-o" || w === "--reporter") && /^(json|ndjson|freeze)$/.test(words[i + 1] ?? "")) return true;
    if (/^--(format|output|reporter)=(json|ndjson)$/.test(w)) return true;
  }
  return false;
}

/** How a package table is read: `tableFilter`. */
export interface PackageTable {
  /** Whether the cells of a line are the table's heading. */
  heading(cells: readonly string[]): boolean;
  /** A line after the heading as one line of the output; null drops it (a rule), undefined keeps it as printed (not a row). */
  row(cells: readonly string[], heading: readonly string[]): string | null | undefined;
  /** stdout from the rows and the other lines (kept first); null prints the raw output. */
  end(rows: readonly string[], other: readonly string[], headed: boolean): readonly string[] | null;
}

/**
 * A filter of a package table the tool prints (`Package  Current  Wanted …`),
 * whitespace-aligned: each row after the heading made one line, other lines
 * kept as printed, stderr held as it is. `data`: the tool's own options that
 * ask for another format (passed through, as `asksForData`).
 */
export function tableFilter(id: string, data: readonly string[], table: PackageTable): Filter {
  return {
    id,
    start(input): FilterRun {
      if (asksForData(input, data)) return { line() {}, end: () => null };
      const rows: string[] = [];
      const other: string[] = [];
      const err: string[] = [];
      let heading: string[] | null = null;
      return {
        line(stream, text) {
          if (stream === "err") return void err.push(text);
          if (text.trim() === "") return;
          const cells = text.trim().split(/\s+/);
          if (!heading && table.heading(cells)) return void (heading = cells);
          const row = heading ? table.row(cells, heading) : undefined;
          if (row === undefined) other.push(text);
          else if (row !== null) rows.push(row);
        },
        end() {
          const stdout = table.end(rows, other, heading !== null);
          return stdout && { stdout: linesText(stdout), stderr: linesText(err) };
        },
      };
    },
  };
}

/** A run's time, said at the end of a line (`in 7s`, `in 1m 2s`, `[1.41s]`, `in 234ms`): noise that differs every run. */
const TIMING = / (?:in (?:\d+(?:\.\d+)?(?:ms|s|m|h)\s?)+|\[\d+(?:\.\d+)?m?s\])(?=\.?$|,| using )/;

export function untimed(text: string): string {
  return text.replace(TIMING, "");
}

interface Item {
  stream: Stream;
  /** A kept or summary line, or the group of a change. */
  text: string;
  kind: "keep" | "change" | "summary" | "drop";
  /** A change's package and version. */
  pkg?: string;
  /** The aside left out of a change, put back with the dropped lines when the marker would cost more. */
  note?: string;
}

const MAX_HELD = 8 * 1024 * 1024;
/** Dropped lines held to be put back when the marker would cost more than they do (a few short lines). */
const MAX_PUT_BACK = 2048;
/** About what `[rtk recall 1a2b3c4]` costs. */
const RECALL_TOKENS = 8;

/**
 * About the tokens a text costs: a word, a run of up to three digits, an
 * ellipsis or any other mark each one. Only to compare a marker with the
 * lines it stands for.
 */
export function roughTokens(text: string): number {
  return text.match(/[A-Za-z]+|\d{1,3}|\.{2,}|[^\s\w]/g)?.length ?? 0;
}

/**
 * A filter made of a dialect: `make` gives the dialect of one run (it may keep
 * state); `passes` says the output is data to pass through untouched.
 */
export function dialectFilter(id: string, make: (input: FilterInput) => Dialect, passes: (input: FilterInput) => boolean = (i) => asksForData(i)): Filter {
  return {
    id,
    start(input, ctx): FilterRun {
      if (passes(input)) return { line() {}, end: () => null };
      const dialect = make(input);
      const report = new Report();
      return {
        line(stream, text) {
          const v = dialect.read(text, stream);
          if (Array.isArray(v)) for (const one of v as readonly Verdict[]) report.take(stream, one, "");
          else report.take(stream, v as Verdict | null, text);
          if (text !== "") report.seen(stream);
        },
        end() {
          for (const f of dialect.finish?.() ?? []) report.take(f.stream, f.verdict, "");
          return report.render(ctx);
        },
      };
    },
  };
}

/** The kept lines, changes and summaries of a run, and the counts of what was dropped. */
export class Report {
  private readonly items = new BoundedLines<Item>(MAX_HELD, (i) => i.text.length + (i.pkg?.length ?? 0) + 2, "whole");
  private readonly dropped = new Map<string, number>();
  /** Asides left out of kept lines, by kind: counted apart from whole lines. */
  private readonly notes = new Map<string, number>();
  private readonly rawOn = { out: 0, err: 0 };
  private heldDrops = 0;
  /** More was dropped than is held to put back: the marker stands. */
  private manyDrops = false;
  private putBack = false;

  seen(stream: Stream): void {
    this.rawOn[stream]++;
  }

  take(stream: Stream, verdict: Verdict | null, text: string): void {
    if (verdict === null) {
      if (text.trim() === "") return;
      this.items.add({ stream, text, kind: "keep" });
    } else if (verdict === "skip") return;
    else if ("drop" in verdict) {
      this.dropped.set(verdict.drop, (this.dropped.get(verdict.drop) ?? 0) + 1);
      if (this.manyDrops || this.heldDrops + text.length > MAX_PUT_BACK) this.manyDrops = true;
      else {
        this.heldDrops += text.length + 1;
        this.items.add({ stream, text: verdict.brief ?? text, kind: "drop" });
      }
    } else if ("keep" in verdict) this.items.add({ stream, text: verdict.keep, kind: "keep" });
    else if ("change" in verdict) {
      if (verdict.note && verdict.noteKind) {
        this.notes.set(verdict.noteKind, (this.notes.get(verdict.noteKind) ?? 0) + 1);
        this.heldDrops += verdict.note.length;
        if (this.heldDrops > MAX_PUT_BACK) this.manyDrops = true;
      }
      this.items.add({ stream, text: verdict.change, kind: "change", pkg: verdict.text, ...(verdict.note && { note: verdict.note }) });
    } else this.items.add({ stream, text: verdict.summary, kind: "summary" });
  }

  /**
   * Kept lines in order, each stream's changes gathered by group, then its
   * summaries; the marker of what was dropped last, unless it would cost more
   * than the few lines it stands for: those are then put back in their place.
   */
  render(ctx: FilterContext): { stdout: string; stderr: string } {
    let marker = this.marker(ctx);
    if (marker && !this.manyDrops) {
      const held = this.items.items.flatMap((i) => (i.kind === "drop" && i.text !== "" ? [i.text] : i.note ? [i.note] : []));
      // The handle counted as a fixed few tokens: the same run decides the same way whatever its id.
      const cost = roughTokens(marker.replace(/\[rtk recall \w+\]$/, "")) + RECALL_TOKENS;
      if (roughTokens(held.join("\n")) <= cost) {
        this.putBack = true;
        marker = null;
      }
    }
    const out = this.stream("out");
    const err = this.stream("err");
    if (marker) (out.length || !err.length || this.rawOn.out ? out : err).push(marker);
    if (this.items.dropped) out.push(`… +${this.items.dropped} more lines past the memory bound [rtk recall ${ctx.recall.id()}]`);
    return { stdout: linesText(out), stderr: linesText(err) };
  }

  private stream(s: Stream): string[] {
    const kept: string[] = [];
    const summaries: string[] = [];
    const groups = new Map<string, string[]>();
    const order: string[] = [];
    for (const item of this.items.items) {
      if (item.stream !== s) continue;
      if (item.kind === "keep" || (item.kind === "drop" && this.putBack && item.text !== "")) kept.push(item.text);
      else if (item.kind === "drop") continue;
      else if (item.kind === "summary") summaries.push(item.text);
      else {
        let g = groups.get(item.text);
        if (!g) {
          groups.set(item.text, (g = []));
          order.push(item.text);
        }
        g.push(this.putBack && item.note ? `${item.pkg!} ${item.note}` : item.pkg!);
      }
    }
    return [...kept, ...order.map((g) => `${g}: ${groups.get(g)!.join(", ")}`), ...summaries];
  }

  private marker(ctx: FilterContext): string | null {
    const total = [...this.dropped.values()].reduce((a, b) => a + b, 0);
    // Asides are not lines: `… +4 progress lines and 5 newer-version notes hidden`.
    const notes = [...this.notes].map(([k, n]) => `${n} ${k} ${noun(n, "note")}`).join(", ");
    if (!total && !notes) return null;
    const handle = `[rtk recall ${ctx.recall.id()}]`;
    if (!total) return `… ${notes} hidden ${handle}`;
    const and = notes ? ` and ${notes}` : "";
    if (this.dropped.size === 1) return `… +${total} ${[...this.dropped.keys()][0]} ${noun(total, "line")}${and} hidden ${handle}`;
    const kinds = [...this.dropped].map(([k, n]) => `${n} ${k}`).join(", ");
    return `… +${counted(total, "line")} hidden (${kinds})${notes ? `, and ${notes}` : ""} ${handle}`;
  }
}

/** The depth of a tree line and its text past the tree art (`│ ├─┬ `, `└── `), or null for a line that is not in a tree. */
export function treeLine(text: string): { at: number; body: string } | null {
  const m = /^([│├└─┬┼ |`\\+-]*[├└`+\\][─┬─ -]*\s?)(\S.*)$/u.exec(text);
  if (!m) return null;
  return { at: m[1]!.length, body: m[2]! };
}
