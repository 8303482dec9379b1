// The tools whose diagnostics are one line each (`file:line:col: message
// [code]`), perhaps with lines under it (an elaboration, a code frame): a
// table of patterns per tool makes its filter. Diagnostics are grouped by file;
// the tool's summary lines stay word for word, at the end; code frames and
// headings go; lines the table does not know are kept in order.
import { linesText, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { DiagnosticList, linterOptions, onStream, OtherLines, report, type Diagnostic } from "./common.js";

export interface LineSpec {
  id: string;
  /** A diagnostic; named groups: file, line, col?, severity?, code?, message. */
  patterns: readonly RegExp[];
  /** The severity when the line does not say it. */
  severity?: string;
  /** Severity letters or words as the tool writes them, and as shown. */
  severities?: Readonly<Record<string, string>>;
  /** A line under a diagnostic that belongs to it: its first group that took part is kept. */
  continuation?: RegExp;
  /** A code written at the end of a message or of its last elaboration line (`(reportAssignmentType)`). */
  trailingCode?: RegExp;
  /** Severities that are a note on the diagnostic before (mypy's `note:`). */
  notes?: readonly string[];
  /** Lines that go: code frames, headings, progress. */
  drop?: RegExp;
  /** After a diagnostic, its code frame up to the caret line goes (rubocop). */
  frameToCaret?: boolean;
  /** The tool's summary and verdict lines. */
  summary?: RegExp;
  /** Arguments after which the output is not this report (another format, help). */
  passThrough?: (input: FilterInput) => boolean;
  /** A linter: a passing run's many warnings are counted past a budget. */
  linter?: boolean;
}

export function lineDiagnostics(spec: LineSpec): Filter {
  return {
    id: spec.id,
    start(input, ctx): FilterRun {
      const passThrough = spec.passThrough?.(input) ?? false;
      const list = new DiagnosticList();
      const others = { out: new OtherLines(), err: new OtherLines() };
      const summary: string[] = [];
      let current: Diagnostic | null = null;
      let frame = 0;
      /** The stream the report is on: where the compact form goes. */
      let home: "out" | "err" | null = null;
      return {
        line(stream, text) {
          if (passThrough) return;
          if (spec.summary?.test(text)) {
            current = null;
            home ??= stream;
            return void summary.push(text);
          }
          for (const p of spec.patterns) {
            const m = p.exec(text);
            if (!m?.groups) continue;
            const g = m.groups;
            const severity = spec.severities?.[g["severity"] ?? ""] ?? g["severity"] ?? spec.severity ?? "error";
            home ??= stream;
            frame = spec.frameToCaret ? 2 : 0;
            if (current && spec.notes?.includes(severity)) {
              const at = g["file"] === current.file ? `${g["line"]}` : `${g["file"]}:${g["line"]}`;
              current.more.push(`${severity}: ${at === current.line ? "" : at + ": "}${g["message"]}`);
              return;
            }
            current = { file: g["file"]!, line: g["line"]!, ...(g["col"] ? { col: g["col"] } : {}), severity, code: g["code"] ?? "", message: g["message"]!, more: [] };
            codeAtEnd(current, spec.trailingCode);
            list.add(current);
            return;
          }
          if (current && spec.continuation) {
            const c = spec.continuation.exec(text);
            if (c) {
              current.more.push(c.slice(1).find((x) => x !== undefined) ?? c[0]);
              codeAtEnd(current, spec.trailingCode);
              return;
            }
          }
          if (frame > 0) {
            frame = /^\s*\^/.test(text) ? 0 : frame - 1;
            return;
          }
          if (text.trim() === "" || spec.drop?.test(text)) return;
          current = null;
          others[stream].add(text);
        },
        end(exitCode) {
          const where = home ?? "out";
          const out = passThrough ? null : report(ctx, list, others[where], summary, linterOptions(spec.linter ? exitCode : null));
          return out && onStream(where, linesText(out), others[where === "out" ? "err" : "out"].text(ctx.recall));
        },
      };
    },
  };
}

/** Moves a code written at the end of the message (or of its last line under it) to the code. */
function codeAtEnd(d: Diagnostic, re: RegExp | undefined): void {
  if (!re || d.code) return;
  const last = d.more.length ? d.more.length - 1 : -1;
  const text = last < 0 ? d.message : d.more[last]!;
  const m = re.exec(text);
  if (!m) return;
  d.code = m[1]!;
  const rest = text.slice(0, m.index);
  if (last < 0) d.message = rest;
  else d.more[last] = rest;
}
