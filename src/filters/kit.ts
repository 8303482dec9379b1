// The shapes every filter family repeats, so that a new filter is its own
// rules and little else: a head/tail window over lines with its exact marker,
// a memory-bounded buffer that counts what it could not hold, "the first that
// fit, then `… +N more`" lists within a character budget, paths grouped by
// directory, and the file probe a filter asks instead of touching the disk.
import { HeadTail } from "./budget.js";
import { droppedHere, linesText, omitted, type FileProbe, type FilterContext, type FilterInput, type FilterRun, type RecallRef } from "./types.js";

export type { FileProbe };

// ---------------------------------------------------------------- words

/** `1 file`, `3 files`: a count with its noun. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The noun alone, singular for one. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** The words after the tool word. */
export function toolArgs(input: Pick<FilterInput, "argv" | "toolIndex">): readonly string[] {
  return input.argv.slice(input.toolIndex + 1);
}

/** The run of a filter that recognises nothing: the raw output is printed. */
export function rawRun(): FilterRun {
  return { line() {}, end: () => null };
}

// ---------------------------------------------------------------- windows

/**
 * The first and last lines of a stream with the exact count of those between:
 * by line counts (`head`/`tail` lines), or by a character budget (everything
 * while it fits; past it, what fits in half the budget from the start and the
 * newest lines in the rest). Memory holds the two ends only.
 */
export class LineWindow {
  private readonly first: string[] = [];
  private readonly last: string[] = [];
  private next = 0;
  private count = 0;
  private readonly chars: HeadTail<string> | null;

  private constructor(
    private readonly head: number,
    private readonly tail: number,
    budget: number | null,
  ) {
    this.chars = budget === null ? null : new HeadTail(budget, (l) => l.length + 1);
  }

  /** The first `head` and the last `tail` lines. */
  static counted(head: number, tail: number): LineWindow {
    return new LineWindow(head, tail, null);
  }

  /** The lines that fit in `budget` characters (each line costs its length and its newline). */
  static within(budget: number): LineWindow {
    return new LineWindow(0, 0, budget);
  }

  get total(): number {
    return this.chars ? this.chars.total : this.count;
  }

  /** Lines gone by between the two ends. */
  get hidden(): number {
    return this.chars ? this.chars.hidden : this.count - this.first.length - this.last.length;
  }

  push(line: string): void {
    if (this.chars) return this.chars.push(line);
    this.count++;
    if (this.first.length < this.head) this.first.push(line);
    else if (this.tail > 0) {
      if (this.last.length < this.tail) this.last.push(line);
      else {
        this.last[this.next] = line;
        this.next = (this.next + 1) % this.tail;
      }
    }
  }

  /** The head, the marker of the lines between (when any), the tail. */
  lines(recall: RecallRef, one = "line", many = "lines"): string[] {
    const head = this.chars ? this.chars.head : this.first;
    const tail = this.chars ? this.chars.tail : [...this.last.slice(this.next), ...this.last.slice(0, this.next)];
    const hidden = this.hidden;
    if (hidden === 0) return [...head, ...tail];
    return [...head, omitted(hidden, noun(hidden, one, many), recall), ...tail];
  }
}

// ---------------------------------------------------------------- bounded buffer

/**
 * The first items of a stream held within a memory bound; past it the rest
 * are counted only (a 200 MB run holds at most `maxChars`). Once one item is
 * dropped every later one is, so what is held is always a prefix.
 * - "whole": an item is held only when it fits in what is left;
 * - "started": items are held while the bound is not yet passed (the last one
 *   may pass it), as for text held up to a cap.
 */
export class BoundedLines<T = string> {
  readonly items: T[] = [];
  dropped = 0;
  chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly size: (item: T) => number = (item) => String(item).length + 1,
    private readonly admit: "whole" | "started" = "started",
    private readonly maxItems = Infinity,
  ) {}

  /** Whether the bound is passed: what comes next is only counted. */
  get full(): boolean {
    return this.dropped > 0 || this.chars > this.maxChars || this.items.length >= this.maxItems;
  }

  /** Holds the item, or counts it; true when it was held. */
  add(item: T): boolean {
    const n = this.size(item);
    const over = this.admit === "whole" ? this.chars + n - 1 > this.maxChars : this.chars > this.maxChars;
    if (this.dropped || over || this.items.length >= this.maxItems) {
      this.dropped++;
      return false;
    }
    this.items.push(item);
    this.chars += n;
    return true;
  }

  /** The lines held, then the marker of those counted (when any). */
  withMarker(this: BoundedLines<string>, what: string, recall: RecallRef): string[] {
    return this.dropped ? [...this.items, omitted(this.dropped, what, recall)] : [...this.items];
  }
}

/**
 * The tool's stderr, kept whole (errors are facts) up to a memory bound; past
 * it the rest is counted and left to the recall entry.
 */
export class ErrorLines {
  private readonly held: BoundedLines<string>;

  constructor(
    maxChars = 256 * 1024,
    private readonly what = "error lines",
  ) {
    this.held = new BoundedLines(maxChars, (l) => l.length + 1, "whole");
  }

  add(text: string): void {
    this.held.add(text);
  }

  /** The lines held, and the marker of those that were not. */
  lines(recall: RecallRef): string[] {
    return this.held.withMarker(this.what, recall);
  }

  text(recall: RecallRef): string {
    return linesText(this.lines(recall));
  }
}

/**
 * The first `max` items of a run shown, the rest counted: a failure's stack
 * frames, a test's captured output. `reset` starts the next run.
 */
export class HeadCount {
  shown = 0;
  hidden = 0;

  constructor(private readonly max: number) {}

  /** Whether the next item is shown; when not, it is counted. */
  take(): boolean {
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

// ---------------------------------------------------------------- lines dropped in place

/** What hiding lines behind a marker must save beyond the marker's own length to be done at all. */
export const MARKER_GAIN = 16;
/** Lines of a run held while it may still turn out shorter than its marker. */
const HELD_RUN = 4096;

/**
 * Lines dropped where they stood (a failure's source excerpt, library stack
 * frames), counted with their place in the recall entry, for one marker there:
 * `… 6 lines of source [rtk recall <id> --lines 12-17]` (`flush`), or `… +3
 * more frames [rtk recall <id> --lines 40-45]` (`omitted` with `range`). A run
 * whose lines are given is shown instead when its marker would save nothing.
 */
export class DroppedRun {
  /** Items dropped since the last marker. */
  count = 0;
  /** Raw lines they took. */
  private lines = 0;
  private first = 0;
  private last = 0;
  private apart = false;
  /** The lines themselves while they are few (null past HELD_RUN characters). */
  private held: string[] | null = [];
  private heldChars = 0;

  /** `at`: the recall entry's number of the line being read (FilterContext.rawLine), when known. */
  constructor(private readonly at?: () => number) {}

  /** An item is dropped: its raw lines (or their count), the last of them being read now. */
  add(lines: number | readonly string[] = 1): void {
    const n = typeof lines === "number" ? lines : lines.length;
    if (typeof lines === "number" || this.held === null || this.heldChars > HELD_RUN) this.held = null;
    else {
      this.held.push(...lines);
      for (const l of lines) this.heldChars += l.length + 1;
    }
    const end = this.at?.();
    if (end === undefined) this.apart = true;
    else {
      const start = end - n + 1;
      if (this.lines === 0) this.first = start;
      else if (start !== this.last + 1) this.apart = true;
      this.last = end;
    }
    this.lines += n;
    this.count++;
  }

  /** The lines dropped as one run of the entry, or null (none, or not one run). */
  get range(): [number, number] | null {
    return this.count && !this.apart && this.last - this.first + 1 === this.lines ? [this.first, this.last] : null;
  }

  /**
   * What stands where the run was: its marker, `what` naming the lines by
   * their count, or the lines themselves when the marker would save nothing;
   * the run starts again.
   */
  flush(what: (n: number) => string, recall: RecallRef): string[] {
    if (this.count === 0) return [];
    const r = this.range;
    const marker = (ref: RecallRef) => (r ? droppedHere(this.lines, what(this.lines), ref, r[0], r[1]) : droppedHere(this.lines, what(this.lines), ref));
    // Measured with an id of a handle's length, so that no entry is reserved for a marker not printed.
    const worth = this.held === null || this.heldChars >= marker({ id: () => "0000000" }).length + 1 + MARKER_GAIN;
    const out = worth ? [marker(recall)] : this.held!;
    this.reset();
    return out;
  }

  reset(): void {
    this.count = 0;
    this.lines = 0;
    this.apart = false;
    this.held = [];
    this.heldChars = 0;
  }
}

// ---------------------------------------------------------------- lists within a budget

export interface FitOptions {
  /** Shown whatever they cost (a list is never shown empty when it has one item). */
  atLeast?: number;
  /** Shown at the most. */
  max?: number;
}

/** How many items, from the first, fit in `chars` when each costs `cost(item)`. */
export function fitCount<T>(items: readonly T[], chars: number, cost: (item: T) => number, opts: FitOptions = {}): number {
  const atLeast = opts.atLeast ?? 0;
  const max = Math.min(items.length, opts.max ?? Infinity);
  let used = 0;
  let n = 0;
  while (n < max && (n < atLeast || used + cost(items[n]!) <= chars)) used += cost(items[n++]!);
  return n;
}

/** The first items whose text fits in `chars` with its separator (at least one), and how many are left. */
export function fitting(items: readonly string[], chars: number, sep = ", "): { shown: string[]; more: number } {
  const n = fitCount(items, chars, (i) => i.length + sep.length, { atLeast: 1 });
  return { shown: items.slice(0, n), more: items.length - n };
}

/** `a, b, c … +N more <what> [rtk recall <id>]`: the first items that fit in `chars`, the rest counted. */
export function listWithin(items: readonly string[], chars: number, what: string, recall: RecallRef, sep = ", "): string {
  const { shown, more } = fitting(items, chars, sep);
  return `${shown.join(sep)}${more ? ` ${omitted(more, what, recall)}` : ""}`;
}

// ---------------------------------------------------------------- paths

/** A path without its leading `./` (`.` and `./` stay). */
export function withoutDotSlash(path: string): string {
  return path.startsWith("./") && path.length > 2 ? path.slice(2) : path;
}

/** A path's directory (with its slash) and name; null when it has none to share (`a.ts`, `src/`). */
export function splitDir(path: string): { dir: string; name: string } | null {
  const slash = path.lastIndexOf("/");
  if (slash < 0 || slash === path.length - 1) return null;
  return { dir: path.slice(0, slash + 1), name: path.slice(slash + 1) };
}

/** Paths by directory, in order of first appearance; `alone` the ones with no directory to share. */
export function groupByDir(paths: Iterable<string>): { groups: Map<string, string[]>; alone: string[] } {
  const groups = new Map<string, string[]>();
  const alone: string[] = [];
  for (const path of paths) {
    const at = splitDir(path);
    if (!at) {
      alone.push(path);
      continue;
    }
    const names = groups.get(at.dir);
    if (names) names.push(at.name);
    else groups.set(at.dir, [at.name]);
  }
  return { groups, alone };
}

/**
 * Items in order, each run of neighbours in one directory together
 * (`dirOf` gives an item's directory, or null for one that stands alone).
 */
export function runsByDir<T>(items: readonly T[], dirOf: (item: T) => string | null): { dir: string | null; items: T[] }[] {
  const runs: { dir: string | null; items: T[] }[] = [];
  for (const item of items) {
    const dir = dirOf(item);
    const last = runs[runs.length - 1];
    if (dir !== null && last && last.dir === dir) last.items.push(item);
    else runs.push({ dir, items: [item] });
  }
  return runs;
}

// ---------------------------------------------------------------- files

/** What a filter may know of the files named on its command line: nothing exists. */
export const NO_FILES: FileProbe = {
  isFile: () => false,
  isDirectory: () => false,
  isStream: () => false,
};

/** The probe the runtime handed over (nothing exists when none was). */
export function filesOf(ctx: Pick<FilterContext, "files">): FileProbe {
  return ctx.files ?? NO_FILES;
}

/** A probe whose answers are remembered for the run (at most `max` paths: memory stays bounded). */
export function remembered(probe: FileProbe, max = 1000): FileProbe {
  const memo = (ask: (path: string) => boolean) => {
    const seen = new Map<string, boolean>();
    return (path: string) => {
      let r = seen.get(path);
      if (r === undefined) {
        r = ask(path);
        if (seen.size < max) seen.set(path, r);
      }
      return r;
    };
  };
  return { isFile: memo((p) => probe.isFile(p)), isDirectory: memo((p) => probe.isDirectory(p)), isStream: memo((p) => probe.isStream(p)) };
}
