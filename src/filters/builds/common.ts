// What the build, type-checker and linter filters share: a diagnostic
// (file:line:col, severity, code or rule, message and the lines that belong
// to it), a list of them rendered grouped by file, lines the filter does not
// know kept in order, the report they make with the tool's summary, and the
// options that say the output is another format. Every diagnostic is kept:
// only when the whole is longer than the content budget (the size past which
// hosts cut a tool result themselves) does each file show its first ones, the
// rest counted exactly with a recall handle.
import { largestFit, limitsOf } from "../budget.js";
import { counted, ErrorLines } from "../kit.js";
import { omitted, type FilterContext, type FilterInput } from "../types.js";

export interface Diagnostic {
  /** The file as the tool printed it; null for a diagnostic about the run (a config error). */
  file: string | null;
  line?: string;
  col?: string;
  /** `error`, `warning`, `note`…, as the tool said it. */
  severity: string;
  /** The code or rule id (`TS2322`, `no-unused-vars`, `E0308`); "" when the tool gave none. */
  code: string;
  message: string;
  /** Lines that belong to it (an elaboration, the source line it points at, a help), as they read. */
  more: string[];
}

export interface RenderOptions {
  /** Whether a severity is written out (a tool that has only errors says nothing of it). */
  showSeverity: (severity: string) => boolean;
  /** The order of code and message (`eslint` puts the rule last). */
  codeLast?: boolean;
  /**
   * For a run that passed (warnings only): past this many characters, the
   * first files are shown whole and the rest counted by rule, with recall.
   */
  passingBudget?: number;
}

/** `line:col` as the diagnostic has it (either may be missing). */
function position(d: Diagnostic): string {
  if (d.line === undefined) return "";
  return d.col === undefined ? d.line : `${d.line}:${d.col}`;
}

function head(d: Diagnostic, opts: RenderOptions): string {
  const parts: string[] = [];
  if (opts.showSeverity(d.severity)) parts.push(d.severity);
  if (opts.codeLast) {
    parts.push(d.message);
    if (d.code) parts.push(`[${d.code}]`);
  } else {
    if (d.code) parts.push(d.code);
    parts.push(d.message);
  }
  return parts.join(" ");
}

/** Diagnostics in the tool's order, grouped by file (a file's group where it first appears). */
export class DiagnosticList {
  private readonly files = new Map<string, Diagnostic[]>();
  private readonly global: Diagnostic[] = [];
  private chars = 0;
  /** Diagnostics past the memory bound: counted only. */
  dropped = 0;
  count = 0;

  constructor(private readonly maxChars = 8 * 1024 * 1024) {}

  add(d: Diagnostic): void {
    this.count++;
    const size = (d.file?.length ?? 0) + d.message.length + d.more.reduce((n, l) => n + l.length + 1, 0) + 16;
    if (this.chars + size > this.maxChars) {
      this.dropped++;
      return;
    }
    this.chars += size;
    if (d.file === null) return void this.global.push(d);
    const list = this.files.get(d.file);
    if (list) list.push(d);
    else this.files.set(d.file, [d]);
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** How many of a severity were seen (dropped ones are not known). */
  bySeverity(severity: string): number {
    let n = 0;
    for (const list of [this.global, ...this.files.values()]) for (const d of list) if (d.severity === severity) n++;
    return n;
  }

  /**
   * The lines: each file once, then its diagnostics as `line:col …`; a file with
   * one diagnostic on one line (`file:line:col …`). Identical diagnostics of a
   * file (same severity, code, message and lines under it) share one line
   * listing their positions.
   */
  render(ctx: Pick<FilterContext, "limits" | "recall">, opts: RenderOptions): string[] {
    const groups = [...this.files].map(([file, list]) => ({ file, rows: rowsOf(list, opts) }));
    const whole = this.renderGroups(ctx, opts, groups);
    if (opts.passingBudget === undefined || this.bySeverity("error") > 0) return whole;
    const chars = whole.reduce((n, l) => n + l.length + 1, 0);
    if (chars <= opts.passingBudget) return whole;
    // A run that passed with many warnings: the first files whole, the rest counted by rule.
    let used = 0;
    let shown = 0;
    while (shown < groups.length) {
      const size = this.renderGroups(ctx, opts, groups.slice(shown, shown + 1), false).reduce((n, l) => n + l.length + 1, 0);
      if (used + size > opts.passingBudget) break;
      used += size;
      shown++;
    }
    const rest = groups.slice(shown);
    const byCode = new Map<string, number>();
    let hidden = 0;
    for (const g of rest)
      for (const d of this.files.get(g.file)!) {
        hidden++;
        const key = d.code || d.severity;
        byCode.set(key, (byCode.get(key) ?? 0) + 1);
      }
    const counts = [...byCode]
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => `${code} ${n}`)
      .join(", ");
    const what = `${hidden === 1 ? "warning" : "warnings"} in ${counted(rest.length, "more file")}`;
    return [...this.renderGroups(ctx, opts, groups.slice(0, shown)), `${omitted(hidden, what, ctx.recall)} (${counts})`];
  }

  private renderGroups(ctx: Pick<FilterContext, "limits" | "recall">, opts: RenderOptions, groups: readonly { file: string; rows: Row[] }[], withGlobal = true): string[] {
    const global = withGlobal ? this.global.flatMap((d) => [head(d, opts), ...d.more.map((l) => `  ${l}`)]) : [];
    const size = (rows: readonly Row[]) => rows.reduce((n, r) => n + r.text.length + 3 + r.more.reduce((m, l) => m + l.length + 5, 0), 0);
    const budget = limitsOf(ctx).content;
    const cost = (k: number) => groups.reduce((n, g) => n + g.file.length + 1 + size(g.rows.slice(0, k)) + (g.rows.length > k ? 48 : 0), 0);
    const longest = groups.reduce((n, g) => Math.max(n, g.rows.length), 0);
    const cap = cost(longest) <= budget ? longest : Math.max(1, largestFit(longest, budget, cost));
    const out: string[] = [...global];
    for (const g of groups) {
      const shown = g.rows.slice(0, cap);
      if (g.rows.length === 1) {
        const r = g.rows[0]!;
        out.push(`${g.file}${r.at ? ":" + r.at : ""} ${r.text}`, ...r.more.map((l) => `  ${l}`));
        continue;
      }
      out.push(g.file);
      for (const r of shown) out.push(`  ${r.at ? r.at + " " : ""}${r.text}`, ...r.more.map((l) => `    ${l}`));
      const hidden = g.rows.slice(cap).reduce((n, r) => n + r.count, 0);
      if (hidden) out.push(`  ${omitted(hidden, hidden === 1 ? "diagnostic" : "diagnostics", ctx.recall)}`);
    }
    if (this.dropped && withGlobal) out.push(omitted(this.dropped, "diagnostics", ctx.recall));
    return out;
  }
}

interface Row {
  at: string;
  text: string;
  more: string[];
  count: number;
}

function rowsOf(list: readonly Diagnostic[], opts: RenderOptions): Row[] {
  const rows: Row[] = [];
  const same = new Map<string, Row>();
  for (const d of list) {
    const text = head(d, opts);
    const key = [text, ...d.more].join("\n");
    const known = same.get(key);
    if (known && d.line !== undefined) {
      known.at += `, ${position(d)}`;
      known.count++;
      continue;
    }
    const row = { at: position(d), text, more: d.more, count: 1 };
    rows.push(row);
    same.set(key, row);
  }
  return rows;
}

/**
 * Lines a filter did not recognise, kept in order (they may be the error that
 * matters), up to a bound; the rest counted with a recall handle.
 */
export class OtherLines extends ErrorLines {
  constructor(maxChars = 16 * 1024) {
    super(maxChars, "lines");
  }
}

/** Characters of warnings shown whole when a linter's run passed (exit 0); the rest are counted by rule. */
export const PASSING_BUDGET = 1500;

/** A linter's rendering: every severity named; a passing run's many warnings counted past PASSING_BUDGET. */
export function linterOptions(exitCode: number | null): RenderOptions {
  return { showSeverity: () => true, ...(exitCode === 0 && { passingBudget: PASSING_BUDGET }) };
}

/**
 * The report: the diagnostics grouped by file, then the lines the filter did
 * not know, then the tool's summary. Null (the raw output prints) when the run
 * had neither diagnostics nor a summary.
 */
export function report(ctx: Pick<FilterContext, "limits" | "recall">, list: DiagnosticList, others: OtherLines, summary: readonly string[], opts: RenderOptions): string[] | null {
  if (!list.count && !summary.length) return null;
  return [...list.render(ctx, opts), ...others.lines(ctx.recall), ...summary];
}

/** The compact output with the report on `stream` and the other stream's text beside it. */
export function onStream(stream: "out" | "err", report: string, other: string): { stdout: string; stderr: string } {
  return stream === "out" ? { stdout: report, stderr: other } : { stdout: other, stderr: report };
}

export interface FormatSpec {
  /** The options naming a format, and the formats that are this report. */
  formatOptions: readonly string[];
  formats: readonly string[];
  /** Options whose output is not a report (help, version, a config dump). */
  other: readonly string[];
}

/** Whether the tool was asked for another format, or for output that is no report: it passes through. */
export function notThisReport(input: FilterInput, spec: FormatSpec): boolean {
  const from = input.toolIndex + 1;
  const format = argValue(input.argv, from, spec.formatOptions);
  return (format !== null && !spec.formats.includes(format)) || hasArg(input.argv, from, spec.other);
}

/** Runs of one repeated line said once with their count: `text (×N)`. */
export function collapseRepeats(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[i]) j++;
    out.push(j - i > 1 ? `${lines[i]} (×${j - i})` : lines[i]!);
    i = j;
  }
  return out;
}

/** Whether the argv holds one of these words (options of the tool, after the tool word). */
export function hasArg(argv: readonly string[], from: number, words: readonly string[]): boolean {
  for (let i = from; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") return false;
    const eq = w.indexOf("=");
    if (words.includes(eq > 0 ? w.slice(0, eq) : w)) return true;
  }
  return false;
}

/** The value of an option (`--format json`, `--format=json`, `-f json`), or null. */
export function argValue(argv: readonly string[], from: number, names: readonly string[]): string | null {
  for (let i = from; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") return null;
    const eq = w.indexOf("=");
    if (eq > 0 && names.includes(w.slice(0, eq))) return w.slice(eq + 1);
    if (names.includes(w)) return argv[i + 1] ?? null;
  }
  return null;
}
