// The contract every filter keeps (filters.md): facts survive, failures look
// like failures, every omission is marked with an exact count and a recall
// handle, content the agent acts on is never paraphrased, never longer than
// the raw output, deterministic.
import type { RouteRow } from "../routes/types.js";

export interface FilterInput {
  /** The argv as executed, launcher words included. */
  argv: readonly string[];
  /** Where the tool word stands in argv. */
  toolIndex: number;
  /** Where its subcommand stands, past the tool's own options (as the route matcher found it). */
  subIndex: number;
  route: RouteRow;
}

/** The omission budgets of one run, in characters of compact output (budget.ts). */
export interface Limits {
  list: number;
  content: number;
}

/** The recall entry of this run; asking for its id means something was omitted. */
export interface RecallRef {
  id(): string;
}

/**
 * What a filter may ask about a path on its command line (the runtime answers
 * from the disk; a test hands a fake). Symlinks are followed.
 */
export interface FileProbe {
  isFile(path: string): boolean;
  isDirectory(path: string): boolean;
  /** A FIFO, socket or character device: a read of it may never end by itself. */
  isStream(path: string): boolean;
}

export interface FilterContext {
  recall: RecallRef;
  /** The files on the command line, as the filter may ask about them (nothing exists when not given). */
  files?: FileProbe;
  /** The omission budgets (characters of compact output); the defaults when not given. */
  limits?: Limits;
  /** Streaming filters write lines as the run goes (the tool's stdout to stdout, stderr to stderr). */
  emit: { out(line: string): void; err(line: string): void };
  /**
   * The number (from 1) of the line being read in the run's recall entry, as
   * `rtk recall <id> --lines A-B` counts them (both streams, in the order they
   * came); not given where the lines have no entry to point into.
   */
  rawLine?: () => number;
}

export interface FilterRun {
  /**
   * One line of the tool's output (as its LineForm has it), without its line
   * end. `cut`: the characters the runtime dropped from the end of a line
   * longer than it holds (1 MiB); the whole line is in the recall store.
   */
  line(stream: "out" | "err", text: string, cut?: number): void;
  /**
   * The run ended. The compact output still to print, or null when the output
   * was not recognised: the raw output is then printed instead.
   */
  end(exitCode: number): CompactOutput | null;
  /**
   * A streaming run's stream whose bytes are the program's own from now on
   * (a container's output): written as they come, byte for byte, the line
   * held so far first, and no longer read by the filter. Asked for each chunk.
   */
  passes?(stream: "out" | "err"): boolean;
}

export interface CompactOutput {
  stdout: string;
  stderr: string;
  /** Printed on stderr before stdout (diagnostics that came before the tests ran). */
  before?: string;
}

/**
 * What the runtime does to a raw line before the filter sees it:
 * - "terminal": what a terminal shows — a CR returns to the line's start
 *   (progress rewritten in place: only the last segment), escape sequences go;
 * - "text": a CR is part of the line (of a name, of a matched line), escape
 *   sequences go;
 * - "patch": a CR is part of the line, and escape sequences stay (a changed
 *   line's own bytes) unless the tool colours its output (a line starts with
 *   one): from that line on they go;
 * - "verbatim": the line as the tool printed it (a file's content); raw
 *   output printed instead of a compact form keeps its escape sequences too
 *   (of any other form they go).
 */
export type LineForm = "terminal" | "text" | "patch" | "verbatim";

export interface Filter {
  id: string;
  /**
   * The raw output holds what the filter exists to hide (secret values): it is
   * never kept in the recall store, and not printed when the filter fails
   * (only when the filter itself hands it back by returning null).
   */
  sensitive?: boolean;
  /** How raw lines reach the filter (see LineForm); "terminal" when not said. */
  lineForm?: (input: FilterInput) => LineForm;
  /**
   * The tool's own output is the compact form (a followed file, a device):
   * it runs with rtk's stdio, so its bytes, their timing and its end when the
   * reader goes (`| head`) are the tool's own. Nothing is kept for recall.
   * `files` answers about the paths it names (nothing exists when not given).
   */
  inherits?: (input: FilterInput, files?: FileProbe) => boolean;
  /** Emits while the tool runs (watch and follow invocations): may only drop, shorten or collapse lines. */
  streaming?: (input: FilterInput) => boolean;
  /**
   * The argv to execute: the original, possibly with presentation-only flags
   * added (never flags that change which items are reported).
   */
  prepare?: (input: FilterInput) => readonly string[];
  start(input: FilterInput, ctx: FilterContext): FilterRun;
}

/** The in-band omission marker: `… +N more <what> [rtk recall <id>]`, with the lines they took in the recall entry when they are one run of it (`--lines A-B`). */
export function omitted(count: number, what: string, recall: RecallRef, range?: readonly [number, number] | null): string {
  return `… +${count} more ${what} [rtk recall ${recall.id()}${range ? ` --lines ${range[0]}-${range[1]}` : ""}]`;
}

/**
 * The marker of lines dropped where they stood: `… 6 lines of source [rtk
 * recall <id> --lines 12-17]`. The range is given when the lines are known to
 * be one run of the recall entry (`first` and `last` its line numbers, and as
 * many lines as `count`); otherwise the handle names the whole entry.
 */
export function droppedHere(count: number, what: string, recall: RecallRef, first?: number, last?: number): string {
  const range = first !== undefined && last !== undefined && last - first + 1 === count ? ` --lines ${first}-${last}` : "";
  return `… ${count} ${what} [rtk recall ${recall.id()}${range}]`;
}

/** Text of lines, each ended with a newline ("" for none). */
export function linesText(lines: readonly string[]): string {
  return lines.length ? lines.join("\n") + "\n" : "";
}
