// `cargo build`, `check` and `clippy`: every error and warning with its
// location, code or lint, message, primary label and help, grouped by file;
// cargo's summary lines (`generated N warnings`, `could not compile`,
// `Finished`) word for word.
//
//   src/main.rs
//     5:22 error E0308 mismatched types
//       expected `i32`, found `&str`
//     7:20 error E0425 cannot find value `totl` in this scope
//       help: a local variable with a similar name exists
//   src/lib.rs:2:5 warning clippy::needless_return unneeded `return` statement
//     help: remove `return`
//   warning: `shop` (bin "shop") generated 1 warning
//   error: could not compile `shop` (bin "shop") due to 2 previous errors; 1 warning emitted
//
// What goes: progress (`Compiling`, `Checking`, `Downloaded`…), notes of a
// help's own (`&u32 implements Sub<u32>`), the `rustc --explain` pointers; the
// source lines with their secondary labels, and suggested edits shown as code,
// are marked under their diagnostic with their lines in the recall entry
// (`… 5 lines of source [rtk recall <id> --lines 3-7]`, or the lines themselves
// when that is shorter). The
// lint of a warning is read from its `#[warn(…)]` note or clippy's link (rustc
// says it once per lint, the first time). `--message-format short` is read
// too; JSON formats pass through.
import { DroppedRun, noun } from "../kit.js";
import { linesText, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun } from "../types.js";
import { argValue, DiagnosticList, OtherLines, report, type Diagnostic } from "./common.js";

const HEADER = /^(error|warning)(?:\[([\w:]+)\])?: (.*)$/;
const SHORT = /^(.+?):(\d+):(\d+): (error|warning)(?:\[([\w:]+)\])?: (.*)$/;
const LOCATION = /^\s*--> (.+):(\d+):(\d+)$/;
const SUMMARY =
  /^(?:(?:warning|error): `[^`]+` \(.+\) generated \d+ warnings?|error: could not compile |(?:warning|error): build failed|error: aborting due to|warning: \d+ warnings? emitted|\s*Finished )/;
const PROGRESS = /^\s+(?:Compiling|Checking|Fresh|Downloaded|Downloading|Updating|Locking|Adding|Blocking|Documenting|Packaging|Verifying|Archiving|Dirty|Building|Removed|Unpacking|Updated)\b/;
const DROPPED = /^(?:Some errors have detailed explanations|For more information about (?:this|an) error, try)/;
/** A snippet line: `  |`, `5 |     code`, `  = …` is not one. */
const SNIPPET = /^\s*(?:\d+\s*)?[|:]|^\s*\.\.\.\s*$|^\s*::: /;
const LINT_NOTE = /^\s*= note: `#\[(?:warn|deny|forbid)\(([\w:]+)\)\]`/;
const CLIPPY_LINK = /^\s*= help: for further information visit https:\/\/rust-lang\.github\.io\/rust-clippy\/.*#([\w]+)$/;

export const cargo: Filter = {
  id: "diagnostics.cargo",
  start: (input, ctx) => new CargoRun(input, ctx),
};

class CargoRun implements FilterRun {
  private readonly passThrough: boolean;
  private readonly list = new DiagnosticList();
  private readonly others = new OtherLines();
  private readonly stdout = new OtherLines();
  private readonly summary: string[] = [];
  private current: Diagnostic | null = null;
  /** Past the diagnostic's own lines: in a `help:` or `note:` of its own, whose notes and code go. */
  private inSub = false;
  /** A diagnostic read before its `-->` is not yet placed in the list. */
  private pending: Diagnostic | null = null;
  /** The source lines (and suggested code) under the current diagnostic: marked under it, each run where it stood. */
  private readonly source: DroppedRun;

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    const format = argValue(input.argv, input.subIndex + 1, ["--message-format"]);
    this.passThrough = format !== null && format.startsWith("json");
    this.source = new DroppedRun(ctx.rawLine);
  }

  line(stream: "out" | "err", text: string): void {
    if (this.passThrough) return;
    if (stream === "out") return this.stdout.add(text);
    if (text.trim() === "") {
      this.place();
      this.current = null;
      return;
    }
    if (PROGRESS.test(text) || DROPPED.test(text)) return;
    if (SUMMARY.test(text)) {
      this.place();
      this.current = null;
      this.summary.push(text);
      return;
    }
    let m = SHORT.exec(text);
    if (m && !text.startsWith(" ")) {
      this.place();
      this.current = null;
      return this.list.add({ file: m[1]!, line: m[2]!, col: m[3]!, severity: m[4]!, code: m[5] ?? "", message: m[6]!, more: [] });
    }
    m = HEADER.exec(text);
    if (m) {
      this.place();
      this.current = this.pending = { file: null, severity: m[1]!, code: m[2] ?? "", message: m[3]!, more: [] };
      this.inSub = false;
      return;
    }
    if (!this.current) return this.others.add(text);
    this.detail(this.current, text);
  }

  end(): CompactOutput | null {
    this.place();
    const out = this.passThrough ? null : report(this.ctx, this.list, this.others, this.summary, { showSeverity: () => true });
    return out && { stdout: this.stdout.text(this.ctx.recall), stderr: linesText(out) };
  }

  /** A line under diagnostic `d`: its location, lint, help and notes, or its source. */
  private detail(d: Diagnostic, text: string): void {
    let m = LOCATION.exec(text);
    if (m) {
      if (!this.inSub && d.file === null && this.pending === d) {
        d.file = m[1]!;
        d.line = m[2]!;
        d.col = m[3]!;
      }
      return;
    }
    const note = LINT_NOTE.exec(text);
    const link = note ? null : CLIPPY_LINK.exec(text);
    if (note || link) {
      if (!d.code) d.code = note ? note[1]! : `clippy::${link![1]}`;
      return;
    }
    if (/^(?:help|note|suggestion): /.test(text)) {
      this.closeSource();
      this.inSub = true;
      d.more.push(text);
      return;
    }
    m = /^\s*= ((?:help|note): .*)$/.exec(text);
    if (m) {
      this.closeSource();
      // Said for the first diagnostic of each lint that `-D warnings` made an error.
      if (!this.inSub && !/implied by `-D warnings`|^help: to override `-D warnings`/.test(m[1]!)) d.more.push(m[1]!);
      return;
    }
    if (SNIPPET.test(text) || /^\s*\d+\s*[-+~]/.test(text)) {
      // The primary label: the text after the carets.
      const label = !this.inSub ? /\^+ +([^\s^].*)$/.exec(text) : null;
      if (label && /^\s*(?:\d+\s*)?\|/.test(text)) d.more.push(label[1]!);
      this.source.add([text]);
      return;
    }
    this.closeSource();
    this.others.add(text);
  }

  private closeSource(): void {
    const lines = this.source.flush((n) => `${noun(n, "line")} of source`, this.ctx.recall);
    // Shown instead (shorter than their marker): the gutter alone (`|`) says nothing.
    if (this.current) this.current.more.push(...lines.map((l) => l.trim()).filter((l) => l !== "" && l !== "|"));
  }

  private place(): void {
    this.closeSource();
    if (this.pending) this.list.add(this.pending);
    this.pending = null;
  }
}
