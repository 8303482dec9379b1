// `go test` (plain and -v; -json, asked for, passes through untouched).
// Kept: every `--- FAIL:` line with the test's own log lines (file:line and
// message), panics with the first goroutine frames in the user's code, build
// errors whole, `FAIL pkg` lines and go's FAIL verdict, coverage figures. Dropped:
// `ok` and `no test files` package lines, -v's RUN/PAUSE/CONT lines, passing and
// skipped tests with their logs, the runtime's and testing package's frames.
// A last line counts packages, and the tests go printed a result for: failures
// always, passes and skips with -v (without it they are not known).
import { counted } from "../kit.js";
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, Kept, runnerFilter } from "./common.js";

const MACHINE = /^(-json|--json|-test\.v=test2json)$/;

class GoTestReader {
  readonly packages = { ok: 0, failed: 0, noTests: 0 };
  readonly tests = { passed: 0, failed: 0, skipped: 0 };
  /** -v: every test's result is printed, so passes and skips can be counted; without it only failures are. */
  private sawVerbose = false;
  /** -v: the lines since the last `=== RUN`, kept only if the test fails. */
  private running: string[] | null = null;
  private readonly head = capturedHead(50);
  private goroutine = false;
  private readonly frames: Frames;
  private pendingFunc: string | null = null;

  constructor(
    private readonly ctx: FilterContext,
    private readonly kept: Kept,
  ) {
    this.frames = new Frames(kept, "\t", ctx.recall, ctx.rawLine);
  }

  get verbose(): boolean {
    return this.sawVerbose;
  }

  line(t: string): void {
    const kept = this.kept;
    if (/^=== (RUN|PAUSE|CONT|NAME) /.test(t)) {
      this.sawVerbose = true;
      // A subtest's lines are held with its parent's, until the parent's result.
      this.running ??= [];
      return;
    }
    const result = /^\s*--- (PASS|FAIL|SKIP): /.exec(t);
    if (result) return this.testResult(t, result[1]!);
    if (this.running !== null) {
      if (this.head.take()) this.running.push(t);
      return;
    }
    if (this.packageLine(t)) return;
    if (t === "PASS" || t.trim() === "" || /^go: downloading /.test(t)) return;
    if (/^goroutine \d+ \[.*\]:$/.test(t)) {
      this.goroutine = true;
      return kept.push(t);
    }
    if (this.goroutine) return this.goroutineLine(t);
    kept.push(t);
  }

  close(): void {
    this.closeFrames();
    this.flushRunning(true);
  }

  private closeFrames(): void {
    this.frames.close();
    this.goroutine = false;
    this.pendingFunc = null;
  }

  private flushRunning(keep: boolean): void {
    if (this.running && keep) {
      for (const l of this.running) this.kept.push(l);
      if (this.head.hidden) this.kept.push(`    ${omitted(this.head.hidden, "lines of the test's output", this.ctx.recall)}`);
    }
    this.running = null;
    this.head.reset();
  }

  /** `--- PASS|FAIL|SKIP: name`: counted; a failure kept with the lines it printed. */
  private testResult(t: string, verdict: string): void {
    this.closeFrames();
    if (verdict === "PASS") this.tests.passed++;
    else if (verdict === "SKIP") this.tests.skipped++;
    else this.tests.failed++;
    this.flushRunning(verdict === "FAIL");
    if (verdict === "FAIL") this.kept.push(t);
  }

  /** `ok pkg`, `? pkg [no test files]`, `FAIL pkg`: counted (coverage and failures kept); false for any other line. */
  private packageLine(t: string): boolean {
    if (/^ok\s+\S+/.test(t)) {
      this.closeFrames();
      this.packages.ok++;
      if (/coverage: /.test(t)) this.kept.push(t);
      return true;
    }
    if (/^\?\s+\S+\s+\[no test files\]/.test(t)) {
      this.packages.noTests++;
      return true;
    }
    if (/^FAIL\s+\S+/.test(t)) {
      this.closeFrames();
      this.packages.failed++;
      this.kept.push(t);
      return true;
    }
    return false;
  }

  /** A goroutine's frame: its function line, then its `file.go:line`, kept when the file is the user's. */
  private goroutineLine(t: string): void {
    const at = /^\t(\S+\.go):\d+/.exec(t);
    if (!at) {
      this.pendingFunc = t;
      return;
    }
    if (this.pendingFunc && !/\/src\/(runtime|testing|reflect|internal)\/|^\/usr\/(local\/)?(lib\/)?go[-\d.]*\//.test(at[1]!)) this.frames.add(this.pendingFunc, t);
    this.pendingFunc = null;
  }
}

function goTestSummary(ctx: FilterContext, r: GoTestReader): string {
  const p = r.packages;
  const parts = [`${p.failed} failed`, `${p.ok} ok`];
  if (p.noTests) parts.push(`${p.noTests} without test files`);
  const t = r.tests;
  // Without -v go prints only the failing tests: the others are not counted anywhere, so no count of them is said.
  const known = r.verbose ? [`${t.failed} failed`, `${t.passed} passed`, ...(t.skipped ? [`${t.skipped} skipped`] : [])] : t.failed ? [`${t.failed} failed`] : [];
  const tests = known.length && t.passed + t.failed + t.skipped ? `; tests: ${known.join(", ")}` : "";
  return `go test: ${counted(p.failed + p.ok + p.noTests, "package")}: ${parts.join(", ")}${tests} [rtk recall ${ctx.recall.id()}]`;
}

export const goTest = runnerFilter({
  id: "test.go",
  machine: MACHINE,
  reader: (ctx, kept) => new GoTestReader(ctx, kept),
  stderr: (t) => !/^go: downloading /.test(t),
  finish(ctx, { out, err }, [reader]) {
    const stdout = out.withMarker("lines", ctx.recall);
    const p = reader.packages;
    if (p.failed + p.ok + p.noTests) stdout.push(goTestSummary(ctx, reader));
    // Build errors came before any test ran.
    return { before: err.lines, stdout };
  },
});
