// `cargo fmt` (rustfmt; with `--check` it prints what it would change): each
// `Diff in <file>:<line>:` heading word for word, the lines of its diff marked
// where they stood with their range in the recall entry, or shown when the
// marker would save nothing (what to change is rustfmt's to do: `cargo fmt`).
// Past the content budget (patches' budget) the remaining diffs are counted
// with their files.
// rustfmt's errors and any other line stay as printed; a warning it repeats for
// every file (a nightly-only option in rustfmt.toml) is said once with its count.
//
//   Diff in /work/calc/src/lib.rs:1:
//   … 7 lines of diff [rtk recall 3f9a0c1 --lines 2-8]
//   Diff in /work/calc/src/main.rs:1:
//   -fn main() {  }
//   +fn main() {}
//
// A run without a diff, and output that is not one (`--emit stdout`, JSON),
// print as they are.
import { limitsOf } from "../budget.js";
import { BoundedLines, counted, DroppedRun, noun } from "../kit.js";
import { linesText, omitted, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun } from "../types.js";

/** rustfmt's heading of a diff (`Diff in <file>:<line>:`; before 1.5, `Diff in <file> at line <line>:`). */
const HEADING = /^Diff in (.+?)(?::\d+| at line \d+):$/;
/** A line of a diff: removed, added or unchanged (an empty unchanged line is one space). */
const DIFF_LINE = /^[-+ ]|^$/;
/** rustfmt warns again for every file it formats (an option the toolchain does not have). */
const WARNING = /^Warning: /;
/** Options, of cargo fmt or of rustfmt after `--`, whose output is not the check's diff. */
const OTHER_OUTPUT = ["--emit", "--message-format", "--print-config", "--help", "-h", "--version", "-V"];

class RustfmtRun implements FilterRun {
  private readonly passThrough: boolean;
  /** The compact stdout, in order. */
  private readonly out = new BoundedLines(256 * 1024);
  private readonly err = new BoundedLines(256 * 1024);
  /** A repeated warning's line in `err`, and how many times it came. */
  private readonly warnings = new Map<string, { at: number; times: number }>();
  private readonly diff: DroppedRun;
  private inDiff = false;
  private diffs = 0;
  /** Characters of the diffs shown: past the content budget the rest are counted. */
  private shown = 0;
  private hidden = 0;
  private readonly hiddenFiles = new Set<string>();

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    this.passThrough = input.argv.slice(input.subIndex + 1).some((w) => OTHER_OUTPUT.includes(w.split("=")[0]!));
    this.diff = new DroppedRun(ctx.rawLine);
  }

  line(stream: "out" | "err", text: string): void {
    if (this.passThrough) return;
    if (stream === "err") return this.errLine(text);
    const h = HEADING.exec(text);
    if (h) {
      this.closeDiff();
      this.diffs++;
      this.inDiff = true;
      if (this.shown > limitsOf(this.ctx).content) {
        this.hidden++;
        this.hiddenFiles.add(h[1]!);
      } else this.show(text);
      return;
    }
    if (this.inDiff && DIFF_LINE.test(text)) {
      if (!this.hidden) this.diff.add([text]);
      return;
    }
    this.closeDiff();
    this.out.add(text);
  }

  end(): CompactOutput | null {
    this.closeDiff();
    const repeated = [...this.warnings.values()].filter((w) => w.times > 1);
    if (this.passThrough || (this.diffs === 0 && repeated.length === 0)) return null;
    for (const w of repeated) this.err.items[w.at] += ` (×${w.times})`;
    const recall = this.ctx.recall;
    if (this.hidden) this.out.add(omitted(this.hidden, `${noun(this.hidden, "diff")} in ${counted(this.hiddenFiles.size, "file")}`, recall));
    return { stdout: linesText(this.out.withMarker("lines", recall)), stderr: linesText(this.err.withMarker("error lines", recall)) };
  }

  private errLine(text: string): void {
    const seen = WARNING.test(text) ? this.warnings.get(text) : undefined;
    if (seen) return void seen.times++;
    if (this.err.add(text) && WARNING.test(text)) this.warnings.set(text, { at: this.err.items.length - 1, times: 1 });
  }

  /** The diff read so far: its marker (or its lines) under its heading. */
  private closeDiff(): void {
    if (!this.inDiff) return;
    this.inDiff = false;
    for (const l of this.diff.flush((n) => `${noun(n, "line")} of diff`, this.ctx.recall)) this.show(l);
  }

  private show(line: string): void {
    this.shown += line.length + 1;
    this.out.add(line);
  }
}

export const rustfmt: Filter = {
  id: "diagnostics.rustfmt",
  // A diff line is the file's own text: a CR in it is part of the line.
  lineForm: () => "text",
  start: (input, ctx) => new RustfmtRun(input, ctx),
};
