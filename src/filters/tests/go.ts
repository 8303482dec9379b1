// `go test` (plain and -v; -json, asked for, passes through untouched).
// Kept: every `--- FAIL:` line with the test's own log lines (file:line and
// message), panics with the first goroutine frames in the user's code, build
// errors whole, `FAIL pkg` lines and go's FAIL verdict, coverage figures. Dropped:
// `ok` and `no test files` package lines, -v's RUN/PAUSE/CONT lines, passing and
// skipped tests with their logs, the runtime's and testing package's frames.
// A last line counts packages (and tests, with -v).
import { omitted, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { CapturedHead, count, finish, Kept, machineOutput, RawSize, toolArgs } from "./common.js";

const MACHINE = /^(-json|--json|-test\.v=test2json)$/;
const FRAMES = 3;

export function goTestReader(ctx: FilterContext, kept: Kept) {
  const packages = { ok: 0, failed: 0, noTests: 0 };
  const tests = { passed: 0, failed: 0, skipped: 0 };
  // -v: the lines since the last `=== RUN`, kept only if the test fails.
  let running: string[] | null = null;
  const head = new CapturedHead(50);
  let goroutine = false;
  let frames = 0;
  let hiddenFrames = 0;
  let pendingFunc: string | null = null;
  const closeFrames = () => {
    if (hiddenFrames) kept.push(`\t${omitted(hiddenFrames, "frames", ctx.recall)}`);
    goroutine = false;
    frames = 0;
    hiddenFrames = 0;
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
    line(t: string): void {
      if (/^=== (RUN|PAUSE|CONT|NAME) /.test(t)) {
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
        if (head.push()) running.push(t);
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
        if (pendingFunc && !/\/src\/(runtime|testing|reflect|internal)\/|^\/usr\/(local\/)?(lib\/)?go[-\d.]*\//.test(at[1]!)) {
          if (frames < FRAMES) {
            frames++;
            kept.push(pendingFunc);
            kept.push(t);
          } else hiddenFrames++;
        }
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

export function goTestSummary(ctx: FilterContext, r: ReturnType<typeof goTestReader>): string {
  const p = r.packages;
  const parts = [`${p.failed} failed`, `${p.ok} ok`];
  if (p.noTests) parts.push(`${p.noTests} without test files`);
  const t = r.tests;
  const tests = t.passed + t.failed + t.skipped ? `; tests: ${t.failed} failed, ${t.passed} passed${t.skipped ? `, ${t.skipped} skipped` : ""}` : "";
  return `go test: ${count(p.failed + p.ok + p.noTests, "package")}: ${parts.join(", ")}${tests} [rtk recall ${ctx.recall.id()}]`;
}

export const goTest: Filter = {
  id: "test.go",
  start(input, ctx): FilterRun {
    const pass = machineOutput(toolArgs(input), MACHINE);
    const raw = new RawSize();
    const out = new Kept();
    const err = new Kept();
    const reader = goTestReader(ctx, out);
    return {
      line(s, t) {
        raw.add(t);
        if (pass) return;
        if (s === "err") {
          if (!/^go: downloading /.test(t)) err.push(t);
        } else reader.line(t);
      },
      end() {
        if (pass) return null;
        reader.close();
        const stdout = [...out.lines];
        if (out.over) stdout.push(omitted(out.over, "lines", ctx.recall));
        const p = reader.packages;
        if (p.failed + p.ok + p.noTests) stdout.push(goTestSummary(ctx, reader));
        // Build errors came before any test ran.
        return finish(ctx, raw, { before: err.lines, stdout });
      },
    };
  },
};
