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
// Build tools add their own forms (DIALECTS): javac's `[ERROR] file:[4,13]
// message` under mvn and its `symbol:`/`location:` lines, Kotlin's `e: file:3:5`
// under gradle, `file(5,17): error CS0029` under dotnet, a location alone on
// its line with the message under it (next build, webpack), esbuild's
// `ERROR:` under vite; a diagnostic a tool repeats in its closing summary is
// shown once; their verdicts (`BUILD FAILURE`, `Tests run:`, `✓ built in`)
// are kept. A watching build (`--watch`) runs on the terminal as it is.
// Each stream is read on its own and printed on its own. A compiler's stdout
// (`-E`, `-o -`, `--version`) is its product: it passes untouched; so does
// the output of `make -n`, `-p`, `-q` and the like.
import { linesText, omitted, type Filter, type FilterRun, type RecallRef } from "../types.js";
import { collapseRepeats, DiagnosticList, hasArg, type Diagnostic, type RenderOptions } from "./common.js";

const DIAGNOSTIC = /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark): (.*?)(?: \[(-W[^\]]+)\])?$/;
const CONTEXT =
  /^(?:.+: In (?:function|member function|constructor|destructor|instantiation of|static member function|lambda function|substitution of) .*:$|.+: At (?:top level|global scope):$|In file included from |\s+from .+[:,]$)/;
const SNIPPET = /^\s+(?:\d+ )?\|/;
/** A line that reports a problem, whatever the tool. */
const PROBLEM =
  /\b(?:error|errors|warning|warnings|fatal|failed|failure|undefined reference|cannot|no such file|not found|segmentation fault|aborted|killed|traceback|exception|panic(?:ked)?)\b|^\S*make(?:\[\d+\])?: \*\*\*/i;
const NOISE = /^\S*make(?:\[\d+\])?: (?:Entering|Leaving) directory /;
/** Lines at the end that are shown as they were (where the verdict is). */
const LAST_LINES = 5;
const LAST_CHARS = 2000;
const COMPILERS = new Set(["gcc", "g++", "cc", "c++", "clang", "clang++"]);

const RENDER: RenderOptions = { showSeverity: () => true };
const SEVERITY: Readonly<Record<string, string>> = { e: "error", w: "warning" };

/** What a build tool adds to the compiler's forms. */
export interface Dialect {
  /** Its own diagnostic line; named groups file, line, col?, severity?, code?, message. */
  diagnostic?: RegExp;
  /** A line that belongs to the diagnostic before it (javac's `symbol:`): its first group that took part is kept. */
  continuation?: RegExp;
  /** A location alone on its line, whose message is on the next (`./app/page.tsx:3:7`, then `Type error: …`). */
  location?: RegExp;
  /** Lines that go without a count: boilerplate around errors the tool repeats on every failure. */
  drop?: RegExp;
  /** The verdict and counts (`BUILD SUCCESS`, `Tests run: …`): kept like a problem. */
  verdict?: RegExp;
  /** An error told over several lines (vite's `error during build:`): kept up to its stack trace, which goes. */
  block?: { start: RegExp; end: RegExp };
}

class StreamLog {
  /** Diagnostics already read: a tool that repeats its errors in a closing summary (mvn, dotnet) is not shown them twice. */
  private readonly seen = new Map<string, Diagnostic>();
  private where: RegExpExecArray | null = null;
  /** Inside an error block: "open" until its end, then "trace" while the stack trace lasts. */
  private block: "open" | "trace" | null = null;

  constructor(private readonly dialect: Dialect = {}) {}

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
    // A blank line is no line of the log's; a stack trace is counted but never one of the last lines shown.
    entry.kept = keep !== false || text.trim() === "";
    if (keep === true || (keep === false && text.trim() === "")) this.kept++;
  }

  /** Reads one line: shown above the tail or dropped as noise (true), left out and counted (false), counted but kept from the tail ("trace"). */
  private classify(text: string): boolean | "trace" {
    const dl = this.dialect;
    if (dl.block && this.block) {
      if (dl.block.end.test(text)) {
        this.block = "trace";
        return "trace";
      }
      if (this.block === "trace") this.block = null;
      else {
        if (text.trim() !== "") this.keepProblem(text);
        return true;
      }
    }
    if (dl.block?.start.test(text)) {
      this.block = "open";
      this.keepProblem(text);
      return true;
    }
    const where = this.where;
    this.where = null;
    if (where) {
      // The message under a location alone on its line (next build's `Type error: …`).
      const m = /^(?:(Type error|Error|Warning|error|warning)(?: \[?(\w+)\]?)?: )?(.+)$/.exec(text)!;
      this.add({
        file: where[1]!,
        line: where[2]!,
        ...(where[3] ? { col: where[3] } : {}),
        severity: /warn/i.test(m[1] ?? "") || /^warning/i.test(where[0]) ? "warning" : "error",
        code: m[2] ?? "",
        message: m[1] && !/^(?:error|warning)$/i.test(m[1]) ? `${m[1]}: ${m[3]}` : m[3]!,
        more: [],
      });
      return true;
    }
    const own = dl.diagnostic?.exec(text);
    if (own?.groups) {
      const g = own.groups;
      const sev = SEVERITY[(g["severity"] ?? "error").toLowerCase()] ?? (g["severity"] ?? "error").toLowerCase();
      this.add({ file: g["file"]!, line: g["line"]!, ...(g["col"] ? { col: g["col"] } : {}), severity: sev, code: g["code"] ?? "", message: g["message"]!, more: [] });
      return true;
    }
    const cont = this.current ? dl.continuation?.exec(text) : null;
    if (cont) {
      const kept = cont.slice(1).find((x) => x !== undefined) ?? cont[0];
      if (this.current && !this.current.more.includes(kept)) this.current.more.push(kept);
      return true;
    }
    const loc = dl.location?.exec(text);
    if (loc) {
      this.where = loc;
      return true;
    }
    if (dl.drop?.test(text)) return true;
    if (dl.verdict?.test(text)) {
      this.current = null;
      this.keepProblem(text);
      return true;
    }
    const d = DIAGNOSTIC.exec(text);
    if (d) {
      const sev = d[4]!;
      if (sev === "note" && this.current) {
        const at = d[1] === this.current.file ? `${d[2]}${d[3] ? ":" + d[3] : ""}` : `${d[1]}:${d[2]}${d[3] ? ":" + d[3] : ""}`;
        this.current.more.push(`note: ${at === `${this.current.line}${this.current.col ? ":" + this.current.col : ""}` ? "" : at + " "}${d[5]}`);
        return true;
      }
      this.add({ file: d[1]!, line: d[2]!, ...(d[3] ? { col: d[3] } : {}), severity: sev, code: "", message: d[5]! + (d[6] ? ` [${d[6]}]` : ""), more: [] });
      return true;
    }
    // A code snippet and the `In function` context are what the diagnostic's position says.
    if (SNIPPET.test(text) || CONTEXT.test(text) || NOISE.test(text)) return true;
    this.current = null;
    if (PROBLEM.test(text)) {
      this.keepProblem(text);
      return true;
    }
    return false;
  }

  private keepProblem(text: string): void {
    if (this.problemChars + text.length > 64 * 1024) this.problemsHidden++;
    else {
      this.problems.push(text);
      this.problemChars += text.length + 1;
    }
  }

  /** A diagnostic, unless the same one was read before (its more lines then go to the first). */
  private add(d: Diagnostic): void {
    const key = `${d.file}:${d.line}:${d.col ?? ""}:${d.severity}:${d.message}`;
    const known = this.seen.get(key);
    if (known) {
      this.current = known;
      return;
    }
    if (this.seen.size < 100_000) this.seen.set(key, d);
    this.current = d;
    this.list.add(d);
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

/** The build tools' own forms, by tool. */
const DIALECTS: Readonly<Record<string, Dialect>> = {
  mvn: {
    diagnostic: /^\[(?<severity>ERROR|WARNING)\] (?<file>[^\s:][^:]*?\.(?:java|kt|scala|groovy)):\[(?<line>\d+),(?<col>\d+)\] (?<message>.*)$/,
    continuation: /^(?:\[ERROR\])?\s{2,}((?:symbol|location|required|found|reason)\s*:.*)$/,
    drop: /^\[ERROR\]\s*$|^\[ERROR\] (?:To see the full stack trace|Re-run Maven using|For more information about the errors|\[Help \d+\]|-> \[Help \d+\])|^\[ERROR\] COMPILATION ERROR|^\[INFO\] -+$|^\[INFO\]\s*$/,
    verdict: /BUILD (?:SUCCESS|FAILURE)|Tests run: |^\[INFO\] \d+ (?:errors?|warnings?)\s*$|^\[INFO\] Reactor Summary|^\[INFO\] .* (?:SUCCESS|FAILURE|SKIPPED) \[/,
  },
  gradle: {
    diagnostic: /^(?<severity>e|w): (?:file:\/\/)?(?<file>\S+?):(?<line>\d+):(?<col>\d+) (?<message>.*)$/,
    drop: /^> Task \S+(?: UP-TO-DATE| NO-SOURCE| FROM-CACHE| SKIPPED)?$|^\* Try:$|^> Run with --(?:stacktrace|info|debug|scan)|^> Get more help at|^\* Get more help at/,
    verdict: /^BUILD (?:SUCCESSFUL|FAILED)|^FAILURE: |^\d+ actionable tasks?/,
  },
  dotnet: {
    diagnostic: /^\s*(?<file>[^\s(][^(]*)\((?<line>\d+),(?<col>\d+)\): (?<severity>error|warning) (?<code>[A-Z]+\d+): (?<message>.*?)(?: \[[^\]]+\])?$/,
    verdict: /^Build (?:succeeded|FAILED)\.|^\s+\d+ (?:Warning|Error)\(s\)/,
  },
  next: {
    location: /^(\.{0,2}\/?[\w@.\/[\]()-]+\.[cm]?[jt]sx?):(\d+):(\d+)$/,
    verdict: /Failed to compile|Compiled successfully|Compiled with warnings|Build error occurred/,
  },
  vite: {
    diagnostic: /^(?<file>\S+?):(?<line>\d+):(?<col>\d+): (?<severity>ERROR|WARNING): (?<message>.*)$/,
    drop: /^(?:transforming|rendering chunks|computing gzip size)\.\.\.$/,
    verdict: /^✓ built in|Build failed in/,
    block: { start: /^error during build:/, end: /^\s+at / },
  },
  webpack: {
    location: /^(?:ERROR|WARNING) in (\S+) (\d+):(\d+)(?:-\d+)?$/,
    verdict: /compiled (?:successfully|with \d+ (?:errors?|warnings?))/,
  },
};

/** Options that make a build watch, by tool: it then runs on the terminal as it is. */
const WATCH: Readonly<Record<string, readonly string[]>> = { vite: ["--watch", "-w"], webpack: ["--watch", "-w"], gradle: ["--continuous", "-t"] };

export const buildLog: Filter = {
  id: "build.log",
  inherits: (input) => hasArg(input.argv, input.toolIndex + 1, WATCH[input.route.tool] ?? []),
  start(input, ctx): FilterRun {
    const from = input.toolIndex + 1;
    const compiler = COMPILERS.has(input.route.tool);
    const passThrough =
      !compiler &&
      hasArg(input.argv, from, ["-n", "--dry-run", "--just-print", "--recon", "-p", "--print-data-base", "-q", "--question", "--version", "-v", "--help", "-h", "--json", "--profile-json"]);
    const dialect = DIALECTS[input.route.tool];
    const logs = { out: new StreamLog(dialect), err: new StreamLog(dialect) };
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
        return { stdout: linesText(compiler ? stdout : logs.out.render(ctx)), stderr: linesText(logs.err.render(ctx)) };
      },
    };
  },
};
