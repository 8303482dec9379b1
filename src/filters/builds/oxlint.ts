// `oxlint`: each diagnostic with its file, line:col, severity, plugin(rule),
// message and help, grouped by file; oxlint's counts word for word.
//
//   src/b.js
//     1:5 warning eslint(no-unused-vars) Variable 'x' is declared but never used.
//       help: Consider removing this declaration.
//     2:1 warning eslint(no-debugger) `debugger` statement is not allowed
//       help: Remove the debugger statement
//   Found 2 warnings and 0 errors.
//   Finished in 71ms on 3 files with 96 rules using 2 threads.
//
// Both of its drawings are read (the graphical one and the ASCII one); the
// code frames and labels go. A run that passed with many warnings shows its
// first files and counts the rest (as eslint). Another format (`-f json`…)
// passes through.
import { linesText, type Filter, type FilterRun } from "../types.js";
import { DiagnosticList, linterOptions, notThisReport, OtherLines, report, type Diagnostic } from "./common.js";

const HEADING = /^ {2}([⚠×!x]) (?:([\w-]+\([^)]+\)): )?(.+)$/;
const LOCATION = /^\s+(?:╭─|,-)\[(.+):(\d+):(\d+)\]$/;
const HELP = /^\s+(help|note): (.*)$/;
const FRAME = /^\s*(?:\d+\s*)?[│|·:╰`]/;
const SUMMARY = /^(?:Found \d+ warnings? and \d+ errors?\.|Finished in |Exceeded maximum number of warnings|Found \d+ errors?)/;

export const oxlint: Filter = {
  id: "diagnostics.oxlint",
  start(input, ctx): FilterRun {
    const passThrough = notThisReport(input, {
      formatOptions: ["-f", "--format"],
      formats: ["default"],
      other: ["--help", "-h", "--version", "-V", "--rules", "--print-config", "--init", "--fix", "--lsp"],
    });
    const list = new DiagnosticList();
    const others = new OtherLines();
    const summary: string[] = [];
    let current: Diagnostic | null = null;
    let placed = true;
    const place = () => {
      if (current && !placed) list.add(current);
      placed = true;
    };
    return {
      line(_stream, text) {
        if (passThrough) return;
        if (SUMMARY.test(text)) {
          place();
          current = null;
          return void summary.push(text);
        }
        const h = HEADING.exec(text);
        if (h) {
          place();
          current = { file: null, severity: h[1] === "⚠" || h[1] === "!" ? "warning" : "error", code: h[2] ?? "", message: h[3]!, more: [] };
          placed = false;
          return;
        }
        if (text.trim() === "") return;
        if (current) {
          const at = LOCATION.exec(text);
          if (at) {
            if (current.file === null) Object.assign(current, { file: at[1]!, line: at[2]!, col: at[3]! });
            return;
          }
          const help = HELP.exec(text);
          if (help) return void current.more.push(`${help[1]}: ${help[2]}`);
          if (FRAME.test(text)) return;
        }
        others.add(text);
      },
      end(exitCode) {
        place();
        const out = passThrough ? null : report(ctx, list, others, summary, linterOptions(exitCode));
        return out && { stdout: linesText(out), stderr: "" };
      },
    };
  },
};
