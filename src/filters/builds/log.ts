// Build logs (`make`, `cmake --build`, `ninja`) and C/C++ compilers (`gcc`,
// `g++`, `clang`, `cc`…): compiler diagnostics grouped by file with their
// notes, every line that reports a problem (`make: *** [Makefile:5: main.o]
// Error 1`, a linker's `undefined reference`, `FAILED:`), runs of a repeated
// line said once with their count, then the last lines of the log as they
// were; the lines between (commands, progress) are counted with a recall
// handle.
//
//   src/main.c
//     5:9 warning unused variable ‘x’ [-Wunused-variable]
//     6:5 error ‘y’ undeclared (first use in this function)
//       note: each undeclared identifier is reported only once for each function it appears in
//   make: *** [Makefile:4: main.o] Error 1
//   … +41 more lines [rtk recall 1a2b3c4]
//   gcc -Wall -c src/util.c -o build/util.o
//
// Each stream is read on its own and printed on its own. A compiler's stdout
// (`-E`, `-o -`, `--version`) is its product: it passes untouched; so does
// the output of `make -n`, `-p`, `-q` and the like.
import type { Filter, FilterRun, RecallRef } from "../types.js";
import { omitted } from "../types.js";
import { collapseRepeats, DiagnosticList, hasArg, type Diagnostic, type RenderOptions } from "./common.js";

const DIAGNOSTIC = /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark): (.*?)(?: \[(-W[^\]]+)\])?$/;
const CONTEXT = /^(?:.+: In (?:function|member function|constructor|destructor|instantiation of|static member function|lambda function|substitution of) .*:$|.+: At (?:top level|global scope):$|In file included from |\s+from .+[:,]$)/;
const SNIPPET = /^\s+(?:\d+ )?\|/;
/** A line that reports a problem, whatever the tool. */
const PROBLEM = /\b(?:error|errors|warning|warnings|fatal|failed|failure|undefined reference|cannot|no such file|not found|segmentation fault|aborted|killed|traceback|exception|panic(?:ked)?)\b|^\S*make(?:\[\d+\])?: \*\*\*/i;
const NOISE = /^\S*make(?:\[\d+\])?: (?:Entering|Leaving) directory /;
/** Lines at the end that are shown as they were (where the verdict is). */
const LAST_LINES = 5;
const LAST_CHARS = 2000;
const COMPILERS = new Set(["gcc", "g++", "cc", "c++", "clang", "clang++"]);

const RENDER: RenderOptions = { showSeverity: () => true };

class StreamLog {
  readonly list = new DiagnosticList();
  private readonly problems: string[] = [];
  private problemChars = 0;
  private problemsHidden = 0;
  /** Lines seen; those neither kept nor in the tail are counted as omitted. */
  private total = 0;
  private kept = 0;
  /** The last lines, each with whether it is kept above (a problem, a diagnostic) or dropped as noise. */
  private tail: { text: string; kept: boolean }[] = [];
  private current: Diagnostic | null = null;

  line(text: string): void {
    this.total++;
    const entry = { text, kept: true };
    this.tail.push(entry);
    if (this.tail.length > LAST_LINES) this.tail.shift();
    const keep = this.classify(text);
    entry.kept = keep;
    if (keep) this.kept++;
  }

  /** Reads one line; whether it is shown above the tail (or dropped as noise). */
  private classify(text: string): boolean {
    const d = DIAGNOSTIC.exec(text);
    if (d) {
      const sev = d[4]!;
      if (sev === "note" && this.current) {
        const at = d[1] === this.current.file ? `${d[2]}${d[3] ? ":" + d[3] : ""}` : `${d[1]}:${d[2]}${d[3] ? ":" + d[3] : ""}`;
        this.current.more.push(`note: ${at === `${this.current.line}${this.current.col ? ":" + this.current.col : ""}` ? "" : at + " "}${d[5]}`);
        return true;
      }
      this.current = { file: d[1]!, line: d[2]!, ...(d[3] ? { col: d[3] } : {}), severity: sev, code: "", message: d[5]! + (d[6] ? ` [${d[6]}]` : ""), more: [] };
      this.list.add(this.current);
      return true;
    }
    // A code snippet and the `In function` context are what the diagnostic's position says.
    if (SNIPPET.test(text) || CONTEXT.test(text) || NOISE.test(text)) return true;
    this.current = null;
    if (PROBLEM.test(text)) {
      if (this.problemChars + text.length > 64 * 1024) this.problemsHidden++;
      else {
        this.problems.push(text);
        this.problemChars += text.length + 1;
      }
      return true;
    }
    return false;
  }

  /** Whether the stream held anything the compact form is made of. */
  get empty(): boolean {
    return this.total === 0;
  }

  render(ctx: { recall: RecallRef; limits?: { list: number; content: number } }): string[] {
    if (!this.total) return [];
    const tail = this.tail.filter((t) => !t.kept);
    let tailChars = 0;
    const shownTail: string[] = [];
    for (let i = tail.length - 1; i >= 0; i--) {
      tailChars += tail[i]!.text.length + 1;
      if (tailChars > LAST_CHARS && shownTail.length) break;
      shownTail.unshift(tail[i]!.text);
    }
    const dropped = this.total - this.kept - shownTail.length;
    const out = [...this.list.render(ctx, RENDER), ...collapseRepeats(this.problems)];
    if (this.problemsHidden) out.push(omitted(this.problemsHidden, "problem lines", ctx.recall));
    if (dropped > 0) out.push(omitted(dropped, dropped === 1 ? "line" : "lines", ctx.recall));
    out.push(...shownTail);
    return out;
  }
}

export const buildLog: Filter = {
  id: "build.log",
  start(input, ctx): FilterRun {
    const from = input.toolIndex + 1;
    const compiler = COMPILERS.has(input.route.tool);
    const passThrough = !compiler && hasArg(input.argv, from, ["-n", "--dry-run", "--just-print", "--recon", "-p", "--print-data-base", "-q", "--question", "--version", "-v", "--help", "-h"]);
    const logs = { out: new StreamLog(), err: new StreamLog() };
    const stdout: string[] = [];
    let stdoutChars = 0;
    return {
      line(stream, text) {
        if (passThrough) return;
        if (compiler && stream === "out") {
          stdoutChars += text.length + 1;
          return void stdout.push(text);
        }
        logs[stream].line(text);
      },
      end() {
        // A compiler's product past a few MiB (`-E` of a large unit) is printed from the raw capture.
        if (passThrough || stdoutChars > 8 * 1024 * 1024 || (logs.out.empty && logs.err.empty && !stdout.length)) return null;
        const text = (lines: readonly string[]) => (lines.length ? lines.join("\n") + "\n" : "");
        return { stdout: compiler ? text(stdout) : text(logs.out.render(ctx)), stderr: text(logs.err.render(ctx)) };
      },
    };
  },
};
