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
  route: RouteRow;
}

/** The recall entry of this run; asking for its id means something was omitted. */
export interface RecallRef {
  id(): string;
}

export interface FilterContext {
  recall: RecallRef;
  /** Streaming filters write lines as the run goes (the tool's stdout to stdout, stderr to stderr). */
  emit: { out(line: string): void; err(line: string): void };
}

export interface FilterRun {
  /** One line of the tool's output, ANSI escapes removed, without its line end. */
  line(stream: "out" | "err", text: string): void;
  /**
   * The run ended. The compact output still to print, or null when the output
   * was not recognised: the raw output is then printed instead.
   */
  end(exitCode: number): CompactOutput | null;
}

export interface CompactOutput {
  stdout: string;
  stderr: string;
}

export interface Filter {
  id: string;
  /**
   * The raw output holds what the filter exists to hide (secret values): it is
   * never kept in the recall store, and not printed when the filter fails
   * (only when the filter itself hands it back by returning null).
   */
  sensitive?: boolean;
  /**
   * The raw output is content to be kept byte for byte (a file's text): when
   * it is printed instead of a compact form, its escape sequences stay. Any
   * other raw output is printed without them.
   */
  verbatim?: (input: FilterInput) => boolean;
  /**
   * Lines reach the filter with their carriage returns: a CR is content here
   * (the lines of a CRLF file in a patch), not a terminal's return to the start
   * of the line (progress). ANSI is stripped either way.
   */
  keepsCarriageReturns?: (input: FilterInput) => boolean;
  /**
   * The tool's own output is the compact form (a followed file, a device):
   * it runs with rtk's stdio, so its bytes, their timing and its end when the
   * reader goes (`| head`) are the tool's own. Nothing is kept for recall.
   */
  inherits?: (input: FilterInput) => boolean;
  /** Emits while the tool runs (watch and follow invocations): may only drop, shorten or collapse lines. */
  streaming?: (input: FilterInput) => boolean;
  /**
   * The argv to execute: the original, possibly with presentation-only flags
   * added (never flags that change which items are reported).
   */
  prepare?: (input: FilterInput) => readonly string[];
  start(input: FilterInput, ctx: FilterContext): FilterRun;
}

/** The in-band omission marker: `… +N more <what> [rtk recall <id>]`. */
export function omitted(count: number, what: string, recall: RecallRef): string {
  return `… +${count} more ${what} [rtk recall ${recall.id()}]`;
}

/** Text of lines, each ended with a newline ("" for none). */
export function linesText(lines: readonly string[]): string {
  return lines.length ? lines.join("\n") + "\n" : "";
}
