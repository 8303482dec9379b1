// The filter's side of a run, shared by the runtime and by discover's replay of
// recorded outputs: lines fed in their line form, and any throw taken as "print
// the raw output".
import type { CompactOutput, Filter, FilterContext, FilterInput, FilterRun, LineForm } from "../filters/types.js";
import type { Stream } from "./capture.js";
import { formed } from "./line-splitter.js";

/** Where a streaming run's lines go once its filter has failed. */
export interface Echo {
  write(fd: 1 | 2, data: string): unknown;
}

/**
 * The filter's side of a run: each line as its line form has it, and a
 * failure anywhere taken as "print the raw output". A streaming run (`echo`
 * given) hands the lines from the one its filter failed on over raw, as they come.
 */
export class FilterFeed {
  private run: FilterRun | null = null;
  /** The filter threw: a buffered run prints the raw output at the end, a streaming one hands the rest over raw. */
  failed = false;
  /** Lines longer than the splitter holds: each reached the filter cut. */
  overlong = 0;

  constructor(
    filter: Filter,
    input: FilterInput,
    /** How lines reach the filter: a patch the tool colours is read as text from its first coloured line on. */
    private form: LineForm,
    private readonly echo: Echo | null,
    ctx: FilterContext,
  ) {
    try {
      this.run = filter.start(input, ctx);
    } catch {
      this.failed = true;
    }
  }

  line(s: Stream, raw: string, ended: boolean, plain: boolean, cut: number): void {
    if (cut) this.overlong++;
    if (!this.failed && this.run) {
      try {
        // A tool that colours its output starts a line with an escape sequence: from there on, a patch's escapes are colour.
        if (this.form === "patch" && !plain && raw.startsWith("\x1b")) this.form = "text";
        this.run.line(s === 0 ? "out" : "err", plain ? raw : formed(raw, this.form), cut || undefined);
        return;
      } catch {
        this.failed = true;
      }
    }
    if (this.echo) void this.echo.write(s === 0 ? 1 : 2, ended ? raw + "\n" : raw);
  }

  /** Whether a streaming run's stream now passes as it comes (FilterRun.passes). */
  passes(s: Stream): boolean {
    if (this.failed || !this.run?.passes) return false;
    try {
      return this.run.passes(s === 0 ? "out" : "err");
    } catch {
      this.failed = true;
      return false;
    }
  }

  /** The compact form, or null when there is none (the filter failed, or did not recognise the output). */
  end(status: number): CompactOutput | null {
    if (this.failed || !this.run) return null;
    try {
      return this.run.end(status);
    } catch {
      this.failed = true;
      return null;
    }
  }
}
