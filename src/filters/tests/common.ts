// What the test-runner filters share: a bounded holder for the lines they keep,
// the capped stack frames of a failure, a filter made of a line reader, and the
// end of a run (what is printed first, the summary last, never longer than the
// raw output). Passing tests are never listed: they are counted, and the recall
// entry of the run (the whole raw output) holds them.
import { BoundedLines, DroppedRun, HeadCount, noun, toolArgs } from "../kit.js";
import { linesText, omitted, type CompactOutput, type Filter, type FilterContext, type FilterRun, type RecallRef } from "../types.js";

export { toolArgs };

/** At most this much compact text is held; past it further kept lines are only counted. */
export const HELD_CHARS = 2 * 1024 * 1024;

/** Lines of one failing test's own output (prints, logs) shown before the rest is counted. */
export const CAPTURED_HEAD = 20;

/** Stack frames shown per failure; the rest are counted. */
export const FRAMES = 3;

/** Lines kept in order within the family's memory bound; the lines past it are counted and said once. */
export class Kept extends BoundedLines<string> {
  constructor() {
    super(HELD_CHARS);
  }

  push(line: string): void {
    this.add(line);
  }

  get lines(): readonly string[] {
    return this.items;
  }

  get over(): number {
    return this.dropped;
  }
}

/** The captured output of one failing test: its first lines, the rest counted. */
export const capturedHead = (max = CAPTURED_HEAD) => new HeadCount(max);

/**
 * The stack frames of one failure: the first FRAMES of the user's own kept,
 * the rest and every library's or runtime's frame counted in a line at
 * `indent` when it closes (with the lines they took, when they are one run of
 * the recall entry).
 */
export class Frames {
  private readonly head = new HeadCount(FRAMES);
  private readonly hidden: DroppedRun;

  constructor(
    private readonly kept: Kept,
    private readonly indent: string,
    private readonly recall: RecallRef,
    /** FilterContext.rawLine: where the line being read stands in the recall entry. */
    at?: () => number,
  ) {
    this.hidden = new DroppedRun(at);
  }

  /** A frame of the user's code (its lines, the last being read now): kept while the first ones are shown, counted past them. */
  add(...lines: string[]): void {
    if (this.head.take()) for (const l of lines) this.kept.push(l);
    else this.hidden.add(lines.length);
  }

  /** A frame of a library's or the runtime's code (its `lines` raw lines, the last being read now): counted. */
  skip(lines = 1): void {
    this.hidden.add(lines);
  }

  /** A JavaScript stack frame (see jsFrame), kept or counted; false for another line. */
  js(t: string): boolean {
    const frame = jsFrame(t);
    if (frame === "user") this.add(t);
    else if (frame === "library") this.skip();
    return frame !== null;
  }

  close(): void {
    if (this.hidden.count) this.kept.push(`${this.indent}${omitted(this.hidden.count, noun(this.hidden.count, "frame"), this.recall, this.hidden.range)}`);
    this.hidden.reset();
    this.head.reset();
  }
}

/** The source excerpt under a failure (`  > 9 |   code`): dropped where it stood, one marker for each run of it. */
export class SourceExcerpt {
  private readonly run: DroppedRun;

  constructor(
    private readonly kept: Kept,
    private readonly indent: string,
    private readonly recall: RecallRef,
    at?: () => number,
  ) {
    this.run = new DroppedRun(at);
  }

  /** The line being read is part of the excerpt. */
  add(line: string): void {
    this.run.add([line]);
  }

  /** The excerpt ended: its marker goes where it stood. */
  close(): void {
    for (const l of this.run.flush((n) => `${noun(n, "line")} of source`, this.recall)) this.kept.push(l.startsWith("… ") ? `${this.indent}${l}` : l);
  }
}

/** A JavaScript stack frame (`    at fn (file:1:2)`): whether it is the user's code or a library's / Node's; null for another line. */
export function jsFrame(t: string): "user" | "library" | null {
  const frame = /^\s+at (?:.* \()?(.+?)\)?$/.exec(t);
  if (!frame) return null;
  return /node_modules\/|^node:|<anonymous>|^internal\//.test(frame[1]!) ? "library" : "user";
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
export function finish(raw: RawSize, f: Finish): CompactOutput | null {
  const before = f.before ?? [];
  const stderr = f.stderr ?? [];
  if (size(before) + size(f.stdout) + size(stderr) >= raw.chars) return null;
  return { stdout: linesText(f.stdout), stderr: linesText(stderr), ...(before.length ? { before: linesText(before) } : {}) };
}

/**
 * Gives the first line matching `at` the recall handle, when it also matches
 * `also`: the counts line of a run whose passing tests are in the recall entry.
 */
export function markRecall(lines: string[], at: RegExp, recall: RecallRef, also?: RegExp): void {
  const i = lines.findIndex((l) => at.test(l));
  if (i >= 0 && (!also || also.test(lines[i]!))) lines[i] += ` [rtk recall ${recall.id()}]`;
}

/**
 * Whether the user asked for machine output (a reporter, JSON): then the
 * output passes through untouched. Arguments past `--` count too (they reach
 * the test harness: `cargo test -- --format json`).
 */
export function machineOutput(args: readonly string[], flags: RegExp): boolean {
  return args.some((a) => flags.test(a));
}

/** A runner's line reader: it keeps what matters of each line, and closes its open block at the end. */
export interface RunnerReader {
  /** `stream`: where the line came from (a reader that reads both streams tells them apart by it). */
  line(t: string, stream: "out" | "err"): void;
  close(): void;
  /** Results not shown (passing tests, suites): the recall entry lists them. */
  readonly resultsDropped?: number;
}

export interface RunnerSpec<R extends RunnerReader> {
  id: string;
  /** The arguments that make a watch run: it streams (each kept line goes out as it comes, on its stream). */
  watch?: (args: readonly string[]) => boolean;
  /** The arguments that make a run whose output is the tool's own, live (a watch run the filter does not read). */
  inherits?: (args: readonly string[]) => boolean;
  /** The options that ask for machine output (a pattern any argument matches, or a test of them all): it passes through untouched. */
  machine?: RegExp | ((args: readonly string[]) => boolean);
  /**
   * `args`: the tool's arguments (a formatter option changes what its lines
   * mean); `streamed`: a watch run, where `kept` sends each line out as it comes.
   */
  reader(ctx: FilterContext, kept: Kept, args: readonly string[], streamed: boolean): R;
  /**
   * stderr: `"read"`, through a reader of its own (the runner reports there);
   * `"same"`, through stdout's reader, which is told the stream (a runner that
   * splits one report over both); `{ read }`, through a reader of another kind
   * (the runtime's own errors); otherwise held as it is, the lines this says
   * yes to (default: every one).
   */
  stderr?: "read" | "same" | { read(ctx: FilterContext, kept: Kept): RunnerReader } | ((t: string) => boolean);
  /** The output from what was kept; `readers` are stdout's, then stderr's when it is read by another of the same kind. */
  finish(ctx: FilterContext, kept: { out: Kept; err: Kept }, readers: readonly [R, R?]): Finish;
}

/** The reader of stderr a spec asks for (null: stderr is held, or read by stdout's reader), over `kept`. */
function stderrReader<R extends RunnerReader>(spec: RunnerSpec<R>, ctx: FilterContext, kept: Kept, args: readonly string[], streamed: boolean): RunnerReader | null {
  const how = spec.stderr;
  if (how === "read") return spec.reader(ctx, kept, args, streamed);
  return typeof how === "object" ? how.read(ctx, kept) : null;
}

/** Kept lines that go out at once: the holder of a streamed run. */
class Emitted extends Kept {
  constructor(private readonly emit: (line: string) => void) {
    super();
  }

  override push(line: string): void {
    this.emit(line);
  }
}

/**
 * A test-runner filter made of its reader and its finish: the raw size
 * counted, machine output passed through; a watch run streams through the
 * same reader (what it keeps goes out as it comes, nothing waits for an end).
 */
export function runnerFilter<R extends RunnerReader>(spec: RunnerSpec<R>): Filter {
  const machine = (input: Parameters<typeof toolArgs>[0]) => {
    const m = spec.machine;
    return m === undefined ? false : typeof m === "function" ? m(toolArgs(input)) : machineOutput(toolArgs(input), m);
  };
  const watching = (input: Parameters<typeof toolArgs>[0]) => (spec.watch?.(toolArgs(input)) ?? false) && !machine(input);
  const keepErr = typeof spec.stderr === "function" ? spec.stderr : () => true;
  const same = spec.stderr === "same";
  const inherits = spec.inherits;
  return {
    id: spec.id,
    ...(inherits && { inherits: (input: Parameters<typeof toolArgs>[0]) => inherits(toolArgs(input)) }),
    streaming: watching,
    start(input, ctx): FilterRun {
      const args = toolArgs(input);
      if (watching(input)) {
        // A line kept goes out on the stream it came on (stdout's reader reads stderr too under "same").
        let stream: "out" | "err" = "out";
        const out = spec.reader(ctx, new Emitted((l) => (stream === "err" ? ctx.emit.err(l) : ctx.emit.out(l))), args, true);
        const err = stderrReader(spec, ctx, new Emitted((l) => ctx.emit.err(l)), args, true);
        return {
          line(s, t) {
            stream = s;
            if (s === "out" || same) out.line(t, s);
            else if (err) err.line(t, s);
            else if (keepErr(t)) ctx.emit.err(t);
          },
          end() {
            stream = "out";
            out.close();
            err?.close();
            return null;
          },
        };
      }
      const pass = machine(input);
      const raw = new RawSize();
      const kept = { out: new Kept(), err: new Kept() };
      const out = spec.reader(ctx, kept.out, args, false);
      const err = stderrReader(spec, ctx, kept.err, args, false);
      return {
        line(s, t) {
          raw.add(t);
          if (pass) return;
          if (s === "out" || same) out.line(t, s);
          else if (err) err.line(t, s);
          else if (keepErr(t)) kept.err.push(t);
        },
        end() {
          if (pass) return null;
          out.close();
          err?.close();
          return finish(raw, spec.finish(ctx, kept, spec.stderr === "read" ? [out, err as R] : [out]));
        },
      };
    },
  };
}
