// `shellcheck` (its default tty format): each problem with file:line:col, its
// SCxxxx code, level and message, grouped by file.
//
//   deploy.sh
//     3:6 info SC2086 Double quote to prevent globbing and word splitting.
//     5:10 error SC2045 Iterating over ls output is fragile. Use globs.
//
// The column is where shellcheck's marker points (`^--`), counted from 1. What
// goes: the source lines, the markers, `Did you mean:` suggestions and the
// wiki links. Another format (`-f gcc`, `-f json`…) passes through.
import { linesText, type Filter, type FilterRun } from "../types.js";
import { DiagnosticList, linterOptions, notThisReport, OtherLines, report } from "./common.js";

const WHERE = /^In (.+) line (\d+):$/;
const MARKER = /^(\s*)\^[-^]*\s+(SC\d+) \((\w+)\): (.*)$/;

export const shellcheck: Filter = {
  id: "diagnostics.shellcheck",
  start(input, ctx): FilterRun {
    const passThrough = notThisReport(input, { formatOptions: ["-f", "--format"], formats: ["tty"], other: ["--help", "-h", "--version", "-V", "--list-optional"] });
    const list = new DiagnosticList();
    const others = new OtherLines();
    const errors = new OtherLines();
    let where: { file: string; line: string } | null = null;
    /** Lines of a block that go: the source line, a suggestion, the links. */
    let skipping = false;
    return {
      line(stream, text) {
        if (passThrough) return;
        if (stream === "err") return errors.add(text);
        const w = WHERE.exec(text);
        if (w) {
          where = { file: w[1]!, line: w[2]! };
          skipping = true;
          return;
        }
        const m = MARKER.exec(text);
        if (m && where) return list.add({ file: where.file, line: where.line, col: String(m[1]!.length + 1), severity: m[3]!, code: m[2]!, message: m[4]!, more: [] });
        if (text.trim() === "") {
          skipping = false;
          return;
        }
        if (/^(?:Did you mean:|For more information:)\s*$/.test(text)) {
          skipping = true;
          return;
        }
        if (skipping) return;
        others.add(text);
      },
      end(exitCode) {
        // shellcheck prints no summary: no diagnostics, no report.
        const out = passThrough ? null : report(ctx, list, others, [], linterOptions(exitCode));
        return out && { stdout: linesText(out), stderr: errors.text(ctx.recall) };
      },
    };
  },
};
