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
import { linesText, type Filter, type FilterRun } from "../types.js";
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
  start(input, ctx): FilterRun {
    const format = argValue(input.argv, input.subIndex + 1, ["--message-format"]);
    const passThrough = format !== null && format.startsWith("json");
    const list = new DiagnosticList();
    const others = new OtherLines();
    const stdout = new OtherLines();
    const summary: string[] = [];
    let current: Diagnostic | null = null;
    /** Past the diagnostic's own lines: in a `help:` or `note:` of its own, whose notes and code go. */
    let inSub = false;
    /** A diagnostic read before its `-->` is not yet placed in the list. */
    let pending: Diagnostic | null = null;
    /** The source lines (and suggested code) under the current diagnostic: marked under it, each run where it stood. */
    const source = new DroppedRun(ctx.rawLine);
    const closeSource = () => {
      const lines = source.flush((n) => `${noun(n, "line")} of source`, ctx.recall);
      // Shown instead (shorter than their marker): the gutter alone (`|`) says nothing.
      if (current) current.more.push(...lines.map((l) => l.trim()).filter((l) => l !== "" && l !== "|"));
    };
    const place = () => {
      closeSource();
      if (pending) list.add(pending);
      pending = null;
    };

    return {
      line(stream, text) {
        if (passThrough) return;
        if (stream === "out") return stdout.add(text);
        if (text.trim() === "") {
          place();
          current = null;
          return;
        }
        if (PROGRESS.test(text) || DROPPED.test(text)) return;
        if (SUMMARY.test(text)) {
          place();
          current = null;
          summary.push(text);
          return;
        }
        let m = SHORT.exec(text);
        if (m && !text.startsWith(" ")) {
          place();
          current = null;
          return list.add({ file: m[1]!, line: m[2]!, col: m[3]!, severity: m[4]!, code: m[5] ?? "", message: m[6]!, more: [] });
        }
        m = HEADER.exec(text);
        if (m) {
          place();
          current = pending = { file: null, severity: m[1]!, code: m[2] ?? "", message: m[3]!, more: [] };
          inSub = false;
          return;
        }
        const d = current as Diagnostic | null;
        if (!d) return others.add(text);
        m = LOCATION.exec(text);
        if (m) {
          if (!inSub && d.file === null && pending === d) {
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
          closeSource();
          inSub = true;
          d.more.push(text);
          return;
        }
        const eq = /^\s*= ((?:help|note): .*)$/.exec(text);
        if (eq) {
          closeSource();
          // Said for the first diagnostic of each lint that `-D warnings` made an error.
          if (!inSub && !/implied by `-D warnings`|^help: to override `-D warnings`/.test(eq[1]!)) d.more.push(eq[1]!);
          return;
        }
        if (SNIPPET.test(text) || /^\s*\d+\s*[-+~]/.test(text)) {
          // The primary label: the text after the carets.
          const label = !inSub ? /\^+ +([^\s^].*)$/.exec(text) : null;
          if (label && /^\s*(?:\d+\s*)?\|/.test(text)) d.more.push(label[1]!);
          source.add([text]);
          return;
        }
        closeSource();
        others.add(text);
      },
      end() {
        place();
        const out = passThrough ? null : report(ctx, list, others, summary, { showSeverity: () => true });
        return out && { stdout: stdout.text(ctx.recall), stderr: linesText(out) };
      },
    };
  },
};
