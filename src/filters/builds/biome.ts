// `biome check`, `lint`, `format`, `ci`: each diagnostic with its file,
// line:col, category and message, grouped by file; biome's counts word for word.
//
//   src/a.js
//     2:1 warning lint/style/useConst This let declares a variable that is only assigned once. (fixable)
//     3:7 error lint/suspicious/noDoubleEquals Using == may be unsafe if you are relying on type coercion. (fixable)
//   src/b.js format Formatter would have printed the following content:
//   Checked 3 files in 27ms. No fixes applied.
//   Found 2 errors.
//
// What goes: the rule of `━` after each heading; a diagnostic's code frame,
// suggested edit and explanations (`i …` lines) are marked under it, with
// their lines in the recall entry (`… 14 lines of detail (code frame, notes,
// suggested fix) [rtk recall <id> --lines 4-17]`). A run that passed with many
// warnings shows its first files and counts the rest (as eslint). Another
// reporter (`--reporter=json`…) passes through.
import { DroppedRun, noun } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";
import { DiagnosticList, linterOptions, notThisReport, OtherLines, report, type Diagnostic } from "./common.js";

const HEADING = /^(\S.*?)\s+━{3,}$/;
const MESSAGE = /^ {2}([×!i✖⚠ℹ]) (.+)$/;
const SEVERITY: Readonly<Record<string, string>> = { "×": "error", "✖": "error", "!": "warning", "⚠": "warning", i: "info", ℹ: "info" };
const SUMMARY = /^(?:Checked \d+ files?|Fixed \d+ files?|Formatted \d+ files?|Found \d+ (?:errors?|warnings?|infos?)\.|Skipped \d+ |The number of diagnostics exceeds|Diagnostics not shown: \d+)/;

export const biome: Filter = {
  id: "diagnostics.biome",
  start(input, ctx): FilterRun {
    const passThrough = notThisReport(input, {
      formatOptions: ["--reporter"],
      formats: ["default"],
      other: ["--help", "-h", "--version", "--write", "--fix", "--apply", "--stdin-file-path"],
    });
    const list = new DiagnosticList();
    const others = new OtherLines();
    const summary: string[] = [];
    /** The diagnostic whose heading was read, waiting for its message. */
    let pending: Diagnostic | null = null;
    let fixable = false;
    /** Inside a diagnostic's body (frames, explanations): dropped until the next heading. */
    let body = false;
    /** The diagnostic whose body is being read: the marker of its body goes under it. */
    let current: Diagnostic | null = null;
    const detail = new DroppedRun(ctx.rawLine);
    const closeBody = () => {
      const lines = detail.flush((n) => `${noun(n, "line")} of detail (code frame, notes, suggested fix)`, ctx.recall);
      if (current) current.more.push(...lines.map((l) => l.trim()).filter(Boolean));
      current = null;
    };
    return {
      line(_stream, text) {
        if (passThrough) return;
        const h = HEADING.exec(text);
        if (h) {
          closeBody();
          const words = h[1]!.split(/\s+/);
          fixable = words.includes("FIXABLE");
          const parts = words.filter((w) => w !== "FIXABLE");
          if (parts.length === 1) pending = { file: null, severity: "", code: parts[0]!, message: "", more: [] };
          else {
            const at = /^(.+?):(\d+):(\d+)$/.exec(parts[0]!);
            pending = { file: at ? at[1]! : parts[0]!, ...(at ? { line: at[2]!, col: at[3]! } : {}), severity: "", code: parts.slice(1).join(" "), message: "", more: [] };
          }
          body = true;
          return;
        }
        if (SUMMARY.test(text)) {
          closeBody();
          body = false;
          return void summary.push(text);
        }
        if (pending) {
          const m = MESSAGE.exec(text);
          if (m) {
            pending.severity = SEVERITY[m[1]!]!;
            pending.message = m[2]! + (fixable ? " (fixable)" : "");
            list.add(pending);
            current = pending;
            pending = null;
          }
          return;
        }
        if (body) {
          if (current) detail.add([text]);
          return;
        }
        if (text.trim() === "") return;
        others.add(text);
      },
      end(exitCode) {
        closeBody();
        const out = passThrough ? null : report(ctx, list, others, summary, linterOptions(exitCode));
        return out && { stdout: "", stderr: linesText(out) };
      },
    };
  },
};
