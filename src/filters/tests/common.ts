// What the test-runner filters share: a bounded holder for the lines they keep,
// the capped head of a failing test's captured output, and the end of a run
// (what is printed first, the summary last, never longer than the raw output).
// Passing tests are never listed: they are counted, and the recall entry of the
// run (the whole raw output) holds them.
import type { CompactOutput, FilterContext, FilterInput } from "../types.js";

/** At most this much compact text is held; past it further kept lines are only counted. */
export const HELD_CHARS = 2 * 1024 * 1024;

/** Lines of one failing test's own output (prints, logs) shown before the rest is counted. */
export const CAPTURED_HEAD = 20;

/** Lines kept in order within a memory bound; the lines past it are counted and said once. */
export class Kept {
  readonly lines: string[] = [];
  private chars = 0;
  over = 0;

  push(line: string): void {
    if (this.chars > HELD_CHARS) {
      this.over++;
      return;
    }
    this.lines.push(line);
    this.chars += line.length + 1;
  }

  /** Drops blank lines at the end (a block's trailing separator). */
  trimEnd(): void {
    while (this.lines.length && this.lines[this.lines.length - 1]!.trim() === "") this.chars -= this.lines.pop()!.length + 1;
  }

  get length(): number {
    return this.lines.length;
  }
}

/**
 * The captured output of one failing test: its first lines, the rest counted.
 * `push` answers whether the line was shown.
 */
export class CapturedHead {
  shown = 0;
  hidden = 0;
  constructor(private readonly max = CAPTURED_HEAD) {}
  push(): boolean {
    if (this.shown < this.max) {
      this.shown++;
      return true;
    }
    this.hidden++;
    return false;
  }
  reset(): void {
    this.shown = 0;
    this.hidden = 0;
  }
}

/** The raw size a filter saw: every line and its end. */
export class RawSize {
  chars = 0;
  add(text: string): void {
    this.chars += text.length + 1;
  }
}

export interface Finish {
  /** Printed first, on stderr (compiler diagnostics that came before the tests ran). */
  before?: readonly string[];
  stdout: readonly string[];
  stderr?: readonly string[];
}

const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * The end of a run: `before` goes out first (so that the summary and failures
 * are the last lines a merged `2>&1 | tail` sees), then stdout, then stderr.
 * Null (the raw output is printed) when the whole would not be shorter than
 * what the tool printed.
 */
export function finish(ctx: FilterContext, raw: RawSize, f: Finish): CompactOutput | null {
  const before = f.before ?? [];
  const stderr = f.stderr ?? [];
  if (size(before) + size(f.stdout) + size(stderr) >= raw.chars) return null;
  for (const l of before) ctx.emit.err(l);
  return { stdout: text(f.stdout), stderr: text(stderr) };
}

function text(lines: readonly string[]): string {
  return lines.length ? lines.join("\n") + "\n" : "";
}

/** The arguments after the tool word. */
export function toolArgs(input: FilterInput): readonly string[] {
  return input.argv.slice(input.toolIndex + 1);
}

/**
 * Whether the user asked for machine output (a reporter, JSON): then the
 * output passes through untouched. Arguments past `--` count too (they reach
 * the test harness: `cargo test -- --format json`).
 */
export function machineOutput(args: readonly string[], flags: RegExp): boolean {
  return args.some((a) => flags.test(a));
}

/** `N things` with the plural. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
