// One table per area, in plain aligned text, and the same figures as JSON.
// Targets are declared next to the figure they judge: a missed timing target is
// reported (MISS); a failed correctness check, or a figure past its regression
// gate, fails the run (FAIL). A gate is set from the spread the figure showed
// over repeated runs (bench/gates.ts), which its check carries.

export type Kind = "timing" | "correctness" | "gate";
export type Target = { max: number } | { min: number } | { equals: number };

export interface Check {
  name: string;
  value: number;
  unit: string;
  target: Target;
  kind: Kind;
  pass: boolean;
  /** A gate's: the figure's spread over repeated runs, which set the gate. */
  spread?: string;
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

  /** A regression gate: a figure past it fails the run. */
  gate(name: string, value: number, unit: string, gate: { target: Target; spread: string }): Check {
    const c = this.check(name, value, unit, gate.target, "gate");
    c.spread = gate.spread;
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

export function targetText(c: Check): string {
  const t = c.target;
  const unit = c.unit ? ` ${c.unit}` : "";
  return "max" in t ? `≤ ${t.max}${unit}` : "min" in t ? `≥ ${t.min}${unit}` : `= ${t.equals}${unit}`;
}

function judgement(c: Check | undefined): string[] {
  if (!c) return ["", ""];
  return [(c.kind === "gate" ? "gate " : "") + targetText(c), verdict(c)];
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
