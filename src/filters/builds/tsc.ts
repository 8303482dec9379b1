// `tsc` and `vue-tsc`: every diagnostic grouped by file, then the summary.
//
//   src/a.ts
//     2:14 TS2322 Type 'string' is not assignable to type 'number'.
//     4:7 TS2345 Argument of type '{ id: number; }' is not assignable to parameter of type 'User'.
//       Property 'email' is missing in type '{ id: number; }' but required in type 'User'.
//   src/b.ts:1:25 TS2307 Cannot find module './nowhere' or its corresponding type declarations.
//   Found 3 errors in 2 files.
//
// Both of tsc's forms are read: the plain one it prints into a pipe
// (`file(line,col): error TSxxxx: message`, elaboration lines indented under
// it) and the pretty one (`--pretty`, or a terminal: `file:line:col - error
// TSxxxx: message`, a code frame, related locations, a summary and a table of
// files). The code frames and the table go (the positions say the same); a
// related location keeps its message (`1:30 'name' is declared here.`). The
// plain form has no summary: the count of what was printed is added, so a run
// cut by `tail` still says how it ended. Watch mode runs on the terminal as it
// is (it redraws); output that is not diagnostics (`--showConfig`,
// `--listFiles`, `--help`) passes through.
import { counted } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";
import { DiagnosticList, hasArg, OtherLines, report, type Diagnostic } from "./common.js";

const PLAIN = /^(.+)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const PRETTY = /^(.+):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;
const SUMMARY = /^Found \d+ (?:errors?|warnings?)\b/;
const RELATED = /^  (.+):(\d+):(\d+)$/;
/** A code frame line: the numbered source line, the `~~~` under it, an elision. */
const FRAME = /^(?:\d+ |\d+$|\s*~[~\s]*$|\s*\.\.\.$|\s*$)/;

const NOT_DIAGNOSTICS = ["--showConfig", "--listFiles", "--listFilesOnly", "--explainFiles", "--traceResolution", "--version", "-v", "--help", "-h", "--all", "--init", "--listEmittedFiles"];

export const tsc: Filter = {
  id: "diagnostics.tsc",
  inherits: (input) => hasArg(input.argv, input.toolIndex + 1, ["--watch", "-w"]),
  start(input, ctx): FilterRun {
    const passThrough = hasArg(input.argv, input.toolIndex + 1, NOT_DIAGNOSTICS);
    const list = new DiagnosticList();
    const others = new OtherLines();
    const errors = new OtherLines();
    const summary: string[] = [];
    let current: Diagnostic | null = null;
    /** Where a pretty diagnostic is: its elaboration, its code frame, a related location's lines. */
    let part: "elaboration" | "frame" | "related" | "table" = "elaboration";
    let related: { file: string; at: string } | null = null;
    let pretty = false;

    const begin = (d: Diagnostic) => {
      list.add(d);
      current = d;
      part = "elaboration";
      related = null;
    };

    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        if (passThrough) return;
        let m = PLAIN.exec(text);
        if (m) return begin({ file: m[1]!, line: m[2]!, col: m[3]!, severity: m[4]!, code: m[5]!, message: m[6]!, more: [] });
        m = PRETTY.exec(text);
        if (m) {
          pretty = true;
          return begin({ file: m[1]!, line: m[2]!, col: m[3]!, severity: m[4]!, code: m[5]!, message: m[6]!, more: [] });
        }
        m = GLOBAL.exec(text);
        if (m) return begin({ file: null, severity: m[1]!, code: m[2]!, message: m[3]!, more: [] });
        if (SUMMARY.test(text)) {
          summary.push(text);
          current = null;
          return;
        }
        if (pretty && /^Errors\s+Files?$/.test(text)) {
          part = "table";
          current = null;
          return;
        }
        if (part === "table" && /^\s+\d+\s+\S/.test(text)) return;
        if (text === "") {
          if (current && part === "elaboration" && pretty) part = "frame";
          return;
        }
        const d = current as Diagnostic | null;
        if (d && text.startsWith("  ")) {
          if (!pretty || part === "elaboration") return void d.more.push(text.slice(2));
          const r = RELATED.exec(text);
          if (r) {
            part = "related";
            related = { file: r[1]!, at: `${r[2]}:${r[3]}` };
            return;
          }
          if (part === "related" && related && text.startsWith("    ")) {
            const body = text.slice(4);
            if (FRAME.test(body)) return;
            const where: { file: string; at: string } = related;
            d.more.push(`${where.file === d.file ? where.at : `${where.file}:${where.at}`} ${body}`);
            return;
          }
        }
        if (d && pretty && part !== "elaboration" && FRAME.test(text)) return;
        current = null;
        others.add(text);
      },
      end() {
        if (passThrough) return null;
        const out = report(ctx, list, others, summary.length || !list.count ? summary : [found(list)], { showSeverity: (s) => s !== "error" });
        return out && { stdout: linesText(out), stderr: errors.text(ctx.recall) };
      },
    };
  },
};

/** The count line of tsc's pretty output, for a run whose output had none: `Found 2 errors in 1 file.` */
function found(list: DiagnosticList): string {
  const errs = list.bySeverity("error");
  const rest = list.count - errs;
  const what = [errs ? counted(errs, "error") : "", rest ? counted(rest, "other diagnostic") : ""].filter(Boolean).join(" and ");
  return `Found ${what}${list.fileCount ? ` in ${counted(list.fileCount, "file")}` : ""}.`;
}
