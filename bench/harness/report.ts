// One table per area, in plain aligned text, and the same figures as JSON.
// Targets are declared next to the figure they judge: a missed timing target is
// reported (MISS), a failed correctness check fails the run (FAIL).

export type Kind = "timing" | "correctness";
export type Target = { max: number } | { min: number } | { equals: number };

export interface Check {
  name: string;
  value: number;
  unit: string;
  target: Target;
  kind: Kind;
  pass: boolean;
}

interface Row {
  cells: string[];
  check?: Check;
}

export class Area {
  readonly rows: Row[] = [];
  readonly figures: Record<string, unknown> = {};
  readonly checks: Check[] = [];
  readonly notes: string[] = [];
  skipped: string | undefined;
  error: string | undefined;

  constructor(
    readonly title: string,
    readonly columns: string[],
  ) {}

  row(cells: (string | number)[], check?: Check): void {
    this.rows.push({ cells: cells.map(String), ...(check && { check }) });
  }

  /** Judges a figure against its target; the result goes to the table and the JSON. */
  check(name: string, value: number, unit: string, target: Target, kind: Kind = "timing"): Check {
    const pass = "max" in target ? value <= target.max : "min" in target ? value >= target.min : value === target.equals;
    const c: Check = { name, value, unit, target, kind, pass };
    this.checks.push(c);
    return c;
  }

  /** A raw figure for the JSON only (stats objects, sizes, per-item detail). */
  figure(key: string, value: unknown): void {
    this.figures[key] = value;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  skip(reason: string): void {
    this.skipped = reason;
  }

  format(): string {
    const head = `\n${this.title}\n`;
    if (this.skipped) return `${head}  skipped: ${this.skipped}\n`;
    if (this.rows.length === 0) return `${head}  ERROR: ${this.error ?? "no figures"}\n`;
    const judged = this.rows.some((r) => r.check);
    const columns = judged ? [...this.columns, "target", "result"] : this.columns;
    const lines = [columns, ...this.rows.map((r) => (judged ? [...r.cells, ...judgement(r.check)] : r.cells))];
    const widths = columns.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? "").length)));
    const text = lines.map(
      (l) =>
        "  " +
        l
          .map((c, i) => c.padEnd(widths[i]!))
          .join("  ")
          .trimEnd(),
    );
    text.splice(1, 0, "  " + widths.map((w) => "-".repeat(w)).join("  "));
    const tail = [...this.notes.map((n) => `  ${n}`), ...(this.error ? [`  ERROR: ${this.error}`] : [])];
    return head + [...text, ...tail].join("\n") + "\n";
  }

  toJSON(): object {
    const { title, columns, rows, figures, checks, notes, skipped, error } = this;
    return { title, columns, rows, figures, checks, notes, skipped, error };
  }
}

export function verdict(c: Check): "PASS" | "MISS" | "FAIL" {
  return c.pass ? "PASS" : c.kind === "timing" ? "MISS" : "FAIL";
}

function judgement(c: Check | undefined): string[] {
  if (!c) return ["", ""];
  const t = c.target;
  const unit = c.unit ? ` ${c.unit}` : "";
  const text = "max" in t ? `≤ ${t.max}${unit}` : "min" in t ? `≥ ${t.min}${unit}` : `= ${t.equals}${unit}`;
  return [text, verdict(c)];
}

export class Report {
  readonly areas: Area[] = [];

  /** Runs one area's measurements and prints its table as soon as they are done. */
  async section(title: string, columns: string[], body: (area: Area) => void | Promise<void>): Promise<void> {
    const area = new Area(title, columns);
    this.areas.push(area);
    try {
      await body(area);
    } catch (e) {
      area.error = e instanceof Error ? e.message : String(e);
    }
    process.stdout.write(area.format());
  }
}

/** A duration in µs, with a unit that keeps three significant figures readable. */
export function duration(us: number): string {
  if (us >= 1e6) return `${sig(us / 1e6)} s`;
  if (us >= 1e3) return `${sig(us / 1e3)} ms`;
  return `${sig(us)} µs`;
}

export function sig(x: number): string {
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(2);
}
