// `jest` (its default reporter, on stderr). Kept: each failing suite's FAIL
// line, every `● suite › test` block (message, Expected/Received, the diff,
// snapshot names, the first stack frames outside node_modules and Node's
// internals), suites that failed to run, console output of failing suites (its
// head), the snapshot summary and the summary counts. Dropped: PASS lines and
// their console output, the list of tests a run of one file prints, Time,
// `Ran all test suites.`, watch mode's key help (the summary's handle names
// the entry that holds them); a source excerpt and the frames past the first
// are marked where they stood. The exit code is jest's own; a watch run
// (--watch, --watchAll) streams. A reporter or JSON chosen by the user
// passes through.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, Kept, markRecall, runnerFilter, SourceExcerpt } from "./common.js";

const MACHINE = /^(--json|--reporters(=.*)?|--outputFile(=.*)?|--listTests|--showConfig)$/;

class JestReader {
  private suitePassed = false;
  private inConsole = false;
  /** In the list of a suite's tests that a run of one file prints (`✓ adds`, `✕ breaks`, describe names), up to its blank line. */
  private inList = false;
  private readonly consoleCap = capturedHead();
  private readonly frames: Frames;
  private readonly source: SourceExcerpt;
  /** Lines not shown: passing suites and tests, timing; the summary's handle names the entry that holds them. */
  private dropped = 0;

  constructor(
    private readonly ctx: FilterContext,
    private readonly kept: Kept,
  ) {
    this.frames = new Frames(kept, "      ", ctx.recall, ctx.rawLine);
    this.source = new SourceExcerpt(kept, "      ", ctx.recall, ctx.rawLine);
  }

  get resultsDropped(): number {
    return this.dropped;
  }

  line(t: string): void {
    const kept = this.kept;
    const excerpt = /^\s+>?\s*\d+ \|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t);
    if (!excerpt && t.trim() !== "") this.source.close();
    const suite = /^(PASS|FAIL) /.exec(t);
    if (suite) {
      this.close();
      this.inConsole = false;
      this.inList = true;
      this.suitePassed = suite[1] === "PASS";
      if (this.suitePassed) this.dropped++;
      else kept.push(t);
      return;
    }
    if (this.inList && this.listLine(t)) return;
    if (/^(Test Suites|Tests|Snapshots):\s/.test(t) || t === "Snapshot Summary") {
      this.close();
      this.suitePassed = false;
      this.inConsole = false;
      return kept.push(t);
    }
    if (/^Time:\s/.test(t) || /^Ran all test suites/.test(t) || /^Watch Usage/.test(t) || /^ › Press /.test(t)) {
      this.dropped++;
      return;
    }
    if (this.suitePassed) {
      if (t.trim() !== "") this.dropped++;
      return;
    }
    this.failureLine(t, excerpt);
  }

  close(): void {
    this.source.close();
    this.frames.close();
    if (this.consoleCap.hidden) this.kept.push(`    ${omitted(this.consoleCap.hidden, "lines of console output", this.ctx.recall)}`);
    this.consoleCap.reset();
  }

  /** A line while in a suite's list of tests: read (counted, or the list's end); false for the line past the list. */
  private listLine(t: string): boolean {
    if (t.trim() === "") {
      this.inList = false;
      return true;
    }
    // Each test of the list (and its describe names): a passing one is counted, a failing one told again in its ● block.
    if (/^\s{2,}/.test(t) && !/^ {2}●/.test(t)) {
      this.dropped++;
      return true;
    }
    this.inList = false;
    return false;
  }

  /** A line of a failing suite: a ● block's header, its console output, source excerpt, frames or message. */
  private failureLine(t: string, excerpt: boolean): void {
    const bullet = /^ {2}● (.*)$/.exec(t);
    if (bullet) {
      this.close();
      this.inConsole = bullet[1] === "Console";
      return this.kept.push(t);
    }
    if (t.trim() === "") return;
    if (this.inConsole) {
      if (this.consoleCap.take()) this.kept.push(t);
      return;
    }
    // Source excerpts: `    > 9 |   code`, `      10 |`, and the caret line.
    if (excerpt) return this.source.add(t);
    if (this.frames.js(t)) return;
    this.kept.push(t);
  }
}

export const jest = runnerFilter({
  id: "test.jest",
  watch: (args) => args.some((a) => a === "--watch" || a === "--watchAll"),
  machine: MACHINE,
  reader: (ctx, kept) => new JestReader(ctx, kept),
  stderr: "read",
  finish(ctx, { out, err }, readers) {
    const stderr = [...err.lines];
    if (err.over + out.over) stderr.push(omitted(err.over + out.over, "lines", ctx.recall));
    // What was not shown (passing tests, timing) is in the entry the summary names.
    if (readers.some((r) => r?.resultsDropped)) markRecall(stderr, /^Tests:\s/, ctx.recall);
    return { stdout: out.lines, stderr };
  },
});
