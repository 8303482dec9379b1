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

function goTestReader(ctx: FilterContext, kept: Kept) {
  const packages = { ok: 0, failed: 0, noTests: 0 };
  const tests = { passed: 0, failed: 0, skipped: 0 };
  /** -v: every test's result is printed, so passes and skips can be counted; without it only failures are. */
  let verbose = false;
  // -v: the lines since the last `=== RUN`, kept only if the test fails.
  let running: string[] | null = null;
  const head = capturedHead(50);
  let goroutine = false;
  const frames = new Frames(kept, "\t", ctx.recall, ctx.rawLine);
  let pendingFunc: string | null = null;
  const closeFrames = () => {
    frames.close();
    goroutine = false;
    pendingFunc = null;
  };
  const flushRunning = (keep: boolean) => {
    if (running && keep) {
      for (const l of running) kept.push(l);
      if (head.hidden) kept.push(`    ${omitted(head.hidden, "lines of the test's output", ctx.recall)}`);
    }
    running = null;
    head.reset();
  };
  return {
    packages,
    tests,
    get verbose() {
      return verbose;
    },
    line(t: string): void {
      if (/^=== (RUN|PAUSE|CONT|NAME) /.test(t)) {
        verbose = true;
        // A subtest's lines are held with its parent's, until the parent's result.
        running ??= [];
        return;
      }
      const result = /^\s*--- (PASS|FAIL|SKIP): /.exec(t);
      if (result) {
        closeFrames();
        if (result[1] === "PASS") tests.passed++;
        else if (result[1] === "SKIP") tests.skipped++;
        else tests.failed++;
        flushRunning(result[1] === "FAIL");
        if (result[1] === "FAIL") kept.push(t);
        return;
      }
      if (running !== null) {
        if (head.take()) running.push(t);
        return;
      }
      if (/^ok\s+\S+/.test(t)) {
        closeFrames();
        packages.ok++;
        if (/coverage: /.test(t)) kept.push(t);
        return;
      }
      if (/^\?\s+\S+\s+\[no test files\]/.test(t)) {
        packages.noTests++;
        return;
      }
      if (/^FAIL\s+\S+/.test(t)) {
        closeFrames();
        packages.failed++;
        return kept.push(t);
      }
      if (t === "PASS" || t.trim() === "" || /^go: downloading /.test(t)) return;
      if (/^goroutine \d+ \[.*\]:$/.test(t)) {
        goroutine = true;
        return kept.push(t);
      }
      if (goroutine) {
        const at = /^\t(\S+\.go):\d+/.exec(t);
        if (!at) {
          pendingFunc = t;
          return;
        }
        if (pendingFunc && !/\/src\/(runtime|testing|reflect|internal)\/|^\/usr\/(local\/)?(lib\/)?go[-\d.]*\//.test(at[1]!)) frames.add(pendingFunc, t);
        pendingFunc = null;
        return;
      }
      kept.push(t);
    },
    close(): void {
      closeFrames();
      flushRunning(true);
    },
  };
}

function goTestSummary(ctx: FilterContext, r: ReturnType<typeof goTestReader>): string {
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
  reader: goTestReader,
  stderr: (t) => !/^go: downloading /.test(t),
  finish(ctx, { out, err }, [reader]) {
    const stdout = out.withMarker("lines", ctx.recall);
    const p = reader.packages;
    if (p.failed + p.ok + p.noTests) stdout.push(goTestSummary(ctx, reader));
    // Build errors came before any test ran.
    return { before: err.lines, stdout };
  },
});
