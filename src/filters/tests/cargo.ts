// `cargo test` (libtest's plain output) and `cargo nextest run`. Kept: the
// compiler's errors whole and its warnings as their message, location and
// labels; every failing test's block (its captured output's head, the panic
// with file:line, the message, left/right, the backtrace frames of the user's
// own code); the failure lists; each FAILED result line; cargo's own error
// lines. Dropped: build progress, `running N tests`, passing and ignored test
// lines (counted in the summary line, listed in the recall entry); standard
// library backtrace frames are counted in the frames marker. Machine output (`--format json`,
// `--message-format json`) passes through untouched.
import { omitted, type Filter, type FilterContext, type RecallRef } from "../types.js";
import { counted, HeadCount, noun } from "../kit.js";
import { capturedHead, FRAMES, Kept, runnerFilter } from "./common.js";

/** Cargo's progress words, right-aligned to column 12. */
const PROGRESS = /^\s*(Compiling|Finished|Running|Doc-tests|Fresh|Checking|Blocking|Downloading|Downloaded|Updating|Locking|Adding|Documenting|Building|Packaging|Unpacking|Removing)\b/;
const MACHINE = /^(--format(=json)?|--message-format(=.*json.*)?|-Zunstable-options|json)$/;

/** libtest's output: `out`, what stdout keeps; cargo's and rustc's lines on stderr go before the tests' report, or after it once the tests have failed. */
class LibtestReader {
  readonly before = new Kept();
  readonly after = new Kept();
  readonly totals = { passed: 0, failed: 0, ignored: 0, measured: 0, filtered: 0, targets: 0 };
  readonly failedLines: string[] = [];
  readonly blockNames = new Set<string>();
  private failed = false;
  private afterTests = false;
  /** stdout: where in libtest's output we are. */
  private section: "tests" | "blocks" | "list" = "tests";
  private inBlock = false;
  private readonly block: PanicBlock;
  private readonly diagnostics = new CompilerOutput();

  constructor(
    ctx: FilterContext,
    private readonly out: Kept,
  ) {
    this.block = new PanicBlock(out, ctx.recall);
  }

  /** A test target's result line said FAILED. */
  get failedTarget(): boolean {
    return this.failed;
  }

  line(t: string, stream: "out" | "err"): void {
    if (stream === "err") this.stderrLine(t);
    else this.stdoutLine(t);
  }

  close(): void {
    if (this.inBlock) this.closeBlock();
  }

  private closeBlock(): void {
    this.block.close();
    this.inBlock = false;
  }

  private stderrLine(t: string): void {
    if (/^error: (test failed|doctest failed|\d+ targets failed)/.test(t)) this.afterTests = true;
    this.diagnostics.line(t, this.afterTests ? this.after : this.before);
  }

  private stdoutLine(t: string): void {
    const out = this.out;
    const result = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out/.exec(t);
    if (result) return this.targetResult(t, result);
    if (t === "failures:" || t === "successes:") {
      if (this.inBlock) this.closeBlock();
      if (this.section === "blocks") {
        this.section = "list";
        out.push(t);
      } else this.section = "blocks";
      return;
    }
    const header = /^---- (.+) (stdout|stderr) ----$/.exec(t);
    if (header && this.section === "blocks") {
      if (this.inBlock) this.closeBlock();
      this.inBlock = true;
      this.blockNames.add(header[1]!);
      out.push(t);
      return;
    }
    if (this.inBlock) return this.block.line(t);
    if (this.section === "list") {
      if (t.trim() !== "") out.push(t);
      return;
    }
    if (t.trim() === "" || /^running \d+ tests?$/.test(t)) return;
    const test = /^test (.+) \.\.\. (ok|ignored(?:, .*)?|FAILED)$/.exec(t);
    if (test) {
      if (test[2] === "FAILED") this.failedLines.push(t);
      return;
    }
    // `cargo test -q`: a line of progress characters, maybe with a count.
    if (/^[.Fi]+( \d+\/\d+)?$/.test(t)) return;
    out.push(t);
  }

  /** `test result: …` of one target: its counts added up, the line kept when it failed. */
  private targetResult(t: string, result: RegExpExecArray): void {
    if (this.inBlock) this.closeBlock();
    const totals = this.totals;
    totals.passed += Number(result[2]);
    totals.failed += Number(result[3]);
    totals.ignored += Number(result[4]);
    totals.measured += Number(result[5]);
    totals.filtered += Number(result[6]);
    totals.targets++;
    if (result[1] === "FAILED") {
      this.failed = true;
      this.out.push(t);
    }
    this.section = "tests";
  }
}

const libtest = runnerFilter({
  id: "test.cargo",
  machine: MACHINE,
  reader: (ctx, out) => new LibtestReader(ctx, out),
  stderr: "same",
  finish(ctx, { out }, [r]) {
    const stdout = out.withMarker("lines", ctx.recall);
    // A failing test without a block of its own (libtest printed none) is still named.
    const unnamed = r.failedLines.filter((l) => !r.blockNames.has(/^test (.+) \.\.\. FAILED$/.exec(l)![1]!));
    stdout.unshift(...unnamed);
    const totals = r.totals;
    if (totals.targets) {
      const parts = [`${totals.passed} passed`];
      if (totals.failed || r.failedTarget) parts.unshift(`${totals.failed} failed`);
      if (totals.ignored) parts.push(`${totals.ignored} ignored`);
      if (totals.measured) parts.push(`${totals.measured} measured`);
      if (totals.filtered) parts.push(`${totals.filtered} filtered out`);
      const verdict = r.failedTarget ? "FAILED" : "ok";
      stdout.push(`cargo test: ${verdict}. ${parts.join("; ")} (${counted(totals.targets, "target")}) [rtk recall ${ctx.recall.id()}]`);
    }
    return { before: r.before.lines, stdout, stderr: r.after.lines };
  },
});

export const cargoTest: Filter = {
  id: "test.cargo",
  start: (input, ctx) => (input.argv[input.subIndex] === "nextest" ? nextest : libtest).start(input, ctx),
};

/**
 * The body of one failing test: what it printed before it panicked (the head,
 * the rest counted), the panic line with its file:line, the message and
 * left/right lines whole, and the first frames of the backtrace that are in the
 * user's code (the standard library's frames are noise; more user frames are counted).
 */
export class PanicBlock {
  private panicked = false;
  private frames = false;
  private traced = false;
  /** User frames of the backtrace shown; the rest are counted. */
  private readonly shownFrames = new HeadCount(FRAMES);
  private pendingFrame: string | null = null;
  /** Frames of the standard library and the harness: counted with the user's frames past the first. */
  private stdFrames = 0;
  private readonly captured = capturedHead();

  /** `header`: the block's title, printed with its first line (an empty section is not shown). */
  constructor(
    private readonly out: Kept,
    private readonly recall: RecallRef,
    private header: string | null = null,
  ) {}

  private emit(line: string): void {
    if (this.header !== null) this.out.push(this.header);
    this.header = null;
    this.out.push(line);
  }

  line(t: string): void {
    if (/^thread '.*' (\(\d+\) )?panicked at /.test(t)) {
      this.closeFrames();
      this.panicked = true;
      return this.emit(t);
    }
    if (!this.panicked) {
      if (t.trim() === "" && this.captured.shown === 0) return;
      if (this.captured.take()) this.emit(t);
      return;
    }
    if (t === "stack backtrace:") {
      this.frames = true;
      this.traced = false;
      return;
    }
    if (this.frames) {
      if (/^\s+\d+: /.test(t)) {
        // A frame printed without its location is judged by its symbol alone.
        if (this.pendingFrame && !STD_SYMBOL.test(this.pendingFrame)) this.frame(this.pendingFrame);
        else if (this.pendingFrame) this.stdFrames++;
        this.pendingFrame = t;
        return;
      }
      const at = /^\s+at (.+)$/.exec(t);
      if (at) {
        if (this.pendingFrame && isUserFrame(at[1]!)) this.frame(this.pendingFrame, t);
        else if (this.pendingFrame) this.stdFrames++;
        this.pendingFrame = null;
        return;
      }
      this.closeFrames();
    }
    if (/^note: (run with `RUST_BACKTRACE=1`|Some details are omitted)/.test(t)) return;
    if (t.trim() === "") return;
    this.emit(t);
  }

  private frame(symbol: string, at?: string): void {
    if (!this.shownFrames.take()) return;
    if (!this.traced) this.emit("stack backtrace:");
    this.traced = true;
    this.emit(symbol);
    if (at !== undefined) this.emit(at);
  }

  private closeFrames(): void {
    if (this.frames && this.pendingFrame && !STD_SYMBOL.test(this.pendingFrame)) this.frame(this.pendingFrame);
    else if (this.frames && this.pendingFrame) this.stdFrames++;
    const hidden = this.shownFrames.hidden + this.stdFrames;
    if (hidden) this.emit(`   ${omitted(hidden, noun(hidden, "frame"), this.recall)}`);
    this.frames = false;
    this.shownFrames.reset();
    this.stdFrames = 0;
    this.pendingFrame = null;
  }

  close(): void {
    this.closeFrames();
    if (this.captured.hidden) this.emit(omitted(this.captured.hidden, "lines of the test's output", this.recall));
    this.captured.reset();
    this.panicked = false;
  }
}

/** A frame of the standard library, the test harness or a trait-object shim. */
const STD_SYMBOL = /^\s+\d+: (std::|core::|alloc::|test::|__rustc::|rust_begin_unwind|<)/;

/** A frame in the user's code: not the standard library's, not a registry crate's. */
function isUserFrame(at: string): boolean {
  return !at.startsWith("/rustc/") && !/\/\.cargo\/registry\/|\/\.rustup\/toolchains\/|\/library\/(std|core|alloc|test)\//.test(at);
}

/**
 * Cargo's and rustc's own lines: progress goes; an error is kept whole; a
 * warning keeps its message, location, labels and help (its source excerpt
 * goes); the per-crate warning counts and anything else are kept.
 */
class CompilerOutput {
  private diag: "warning" | "error" | null = null;

  line(t: string, into: Kept): void {
    // A line of cargo's own (`warning: build failed, waiting…`, `error: could not compile…`) may follow a diagnostic with no blank line: it ends it.
    if (this.diag && /^(error|warning)(\[\w+\])?: /.test(t)) this.diag = null;
    if (this.diag) {
      if (t.trim() === "") {
        this.diag = null;
        return;
      }
      if (this.diag === "error") return into.push(t);
      if (/^\s*--> /.test(t) || /^\s*= help:/.test(t) || /^\s*\|.*[\^\-]{1,} \S/.test(t) || /^help: /.test(t)) into.push(t);
      return;
    }
    if (PROGRESS.test(t) || t.trim() === "") return;
    if (/^For more information about (this|an) error, try/.test(t)) return;
    if (/^warning: `[^`]+` \(.+\) generated \d+ warnings?/.test(t)) return into.push(t);
    if (/^warning(\[\w+\])?: /.test(t) && !/^warning: build failed, waiting for other jobs/.test(t)) {
      this.diag = "warning";
      return into.push(t);
    }
    if (/^error(\[\w+\])?: /.test(t) && !/^error: (test failed|doctest failed|\d+ targets failed|could not compile|test run failed)/.test(t)) {
      this.diag = "error";
      return into.push(t);
    }
    into.push(t);
  }
}

/** nextest's status words for a test that did not simply pass or get skipped. */
const NEXTEST_STATUS = /^\s+(FAIL|TIMEOUT|SIGSEGV|SIGABRT|SIGBUS|SIGILL|ABORT|LEAK|LEAK-FAIL|FLAKY|SLOW|TRY \d+ \w+|RETRY|EXECFAIL|CANCEL|TERMINATING|KILLED) /;

const LIBTEST_HARNESS = /^(running \d+ tests?|test .+ \.\.\. (ok|FAILED)|failures:|    \S+|test result: .*)$/;

/**
 * `cargo nextest run` (its human output, all on stderr): the build's
 * diagnostics, each failing test's status line and its STDOUT/STDERR sections
 * (read like libtest's blocks), slow tests, the summary and its list of
 * failures. PASS and SKIP lines, the start banner and separators go.
 */
function nextestReader(ctx: FilterContext, out: Kept) {
  const before = new Kept();
  const diagnostics = new CompilerOutput();
  let started = false;
  let block: PanicBlock | null = null;
  const close = () => {
    block?.close();
    block = null;
  };
  return {
    before,
    line(t: string): void {
      if (/^\s*Starting \d+ tests? across/.test(t)) {
        started = true;
        return;
      }
      if (/^\s*[─-]{4,}\s*$/.test(t) || /^\s*Nextest run ID /.test(t)) return close();
      if (!started) return diagnostics.line(t, before);
      if (/^\s+(PASS|SKIP) \[/.test(t)) return close();
      const section = /^(?:──── |--- )(STDOUT|STDERR|OUTPUT):/.exec(t);
      if (section) {
        close();
        block = new PanicBlock(out, ctx.recall, t);
        return;
      }
      if (NEXTEST_STATUS.test(t) || /^\s+Summary \[/.test(t) || /^error: /.test(t)) {
        close();
        return out.push(t);
      }
      // Each test runs alone under libtest: its harness lines in the section say nothing the status line does not.
      if (block) return LIBTEST_HARNESS.test(t) ? undefined : block.line(t);
      if (t.trim() !== "") out.push(t);
    },
    close,
  };
}

const nextest = runnerFilter({
  id: "test.cargo",
  machine: MACHINE,
  reader: nextestReader,
  stderr: "same",
  finish: (ctx, { out }, [r]) => ({ before: r.before.lines, stdout: [], stderr: out.withMarker("lines", ctx.recall) }),
});
