// `eslint` (its default stylish format) and `stylelint` (its `string`
// format, the same table with ✖ and ⚠): every problem with its file,
// line:col, severity, rule and message, the `✖ N problems` summary and the
// fixable hint, word for word.
//
//   src/a.js
//     1:7 error no-unused-vars 'x' is assigned a value but never used
//     3:1, 9:1 warning no-console Unexpected console statement
//   src/b.js:2:10 error Parsing error: Unexpected token )
//   ✖ 4 problems (2 errors, 2 warnings)
//     0 errors and 1 warning potentially fixable with the `--fix` option.
//
// A run that passed (exit 0: warnings only) with more warnings than fit in
// PASSING_BUDGET characters shows its first files whole and counts the rest
// by rule (`… +100 more warnings in 38 more files [rtk recall id] (no-console
// 67, eqeqeq 33)`): on a failed run every problem is shown.
// What goes: the column padding, blank lines. Another format (`-f json`,
// `--format unix`), `--print-config`, `--help` pass through; whatever the
// filter does not know (a too-many-warnings notice) is kept in order.
import { linesText, type Filter, type FilterRun } from "../types.js";
import { DiagnosticList, linterOptions, notThisReport, onStream, OtherLines, report, type FormatSpec } from "./common.js";

export { PASSING_BUDGET } from "./common.js";

const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning|✖|⚠)\s+(.*?)(?:\s{2,}((?:@?[\w.-]+\/)*[\w.-]+))?\s*$/;
const SUMMARY = /^✖ \d+ problems? \(/;
const FIXABLE = /^\s+\d+ (?:errors?|warnings?)(?: and \d+ warnings?)? potentially fixable/;

interface StylishSpec extends FormatSpec {
  id: string;
  /** The stream the tool writes its report on. */
  stream: "out" | "err";
}

const SEVERITY: Readonly<Record<string, string>> = { error: "error", warning: "warning", "✖": "error", "⚠": "warning" };

function stylish(spec: StylishSpec): Filter {
  return {
    id: spec.id,
    start(input, ctx): FilterRun {
      const passThrough = notThisReport(input, spec);
      const list = new DiagnosticList();
      const others = new OtherLines();
      const rest = new OtherLines();
      const summary: string[] = [];
      let file: string | null = null;
      /** Whether the file heading had a problem under it (a heading alone is a line the filter does not know). */
      let used = true;
      const close = () => {
        if (file !== null && !used) others.add(file);
        file = null;
      };
      return {
        line(stream, text) {
          if (stream !== spec.stream) return rest.add(text);
          if (passThrough || text.trim() === "") return;
          if (SUMMARY.test(text) || FIXABLE.test(text)) {
            close();
            summary.push(text);
            return;
          }
          const m = file !== null ? PROBLEM.exec(text) : null;
          if (m) {
            used = true;
            return list.add({ file: file!, line: m[1]!, col: m[2]!, severity: SEVERITY[m[3]!]!, code: m[5] ?? "", message: m[4]!, more: [] });
          }
          if (!/^\s/.test(text) && !summary.length) {
            close();
            file = text;
            used = false;
            return;
          }
          others.add(text);
        },
        end(exitCode) {
          close();
          const out = passThrough ? null : report(ctx, list, others, summary, linterOptions(exitCode));
          return out && onStream(spec.stream, linesText(out), rest.text(ctx.recall));
        },
      };
    },
  };
}

export const eslint = stylish({
  id: "diagnostics.eslint",
  stream: "out",
  formatOptions: ["-f", "--format"],
  formats: ["stylish"],
  other: ["--print-config", "--help", "-h", "--version", "-v", "--init", "--env-info", "--inspect-config", "-o", "--output-file"],
});

/** stylelint's default `string` formatter is eslint's stylish with ✖ and ⚠, on stderr. */
export const stylelint = stylish({
  id: "diagnostics.stylelint",
  stream: "err",
  formatOptions: ["-f", "--formatter"],
  formats: ["string"],
  other: ["--print-config", "--help", "-h", "--version", "-v", "-o", "--output-file"],
});
