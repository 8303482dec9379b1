// `pytest` (also `python -m pytest`, `uv run pytest`, `poetry run pytest`):
// pytest's own sections are the structure. Kept: every failure and error block
// (the `>` line, the `E` lines, each frame's file:line, the locals of a
// parametrised test, the head of its captured output), collection errors, the
// warnings summary, the short test summary, pytest's stop and interrupt lines
// and its final verdict line, stderr whole. Dropped: the session header,
// progress dots and percentages, PASSED/SKIPPED/XFAIL lines of -v (the verdict's
// handle names the entry that holds them), separators; the test's source around
// the `>` line and caret underlines are marked where they stood. Banners lose their
// padding (`=== FAILURES ===`). Machine output (--junitxml to stdout, a JSON
// report) is not changed: those go to files, and the terminal output is the same.
import { DroppedRun, noun } from "../kit.js";
import { omitted, type CompactOutput, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { capturedHead, finish, Kept, RawSize } from "./common.js";

/** Lines of pytest's session header (before collection): its environment, not results. */
const HEADER =
  /^(platform |cachedir: |rootdir: |configfile: |inifile: |testpaths: |plugins: |[\w.-]+ profile '|Using --randomly-seed|Test order randomisation|[\w.-]+: [\d.]+ \(defaults: |asyncio: |created: \d+\/\d+ workers|\d+ workers \[\d+ items?\])/;
/** A progress line: a module and its result letters, or (-q) the letters alone, with a percentage or a count. */
const PROGRESS = /^(\S+\.py )?[.FEsxXR]+(\s+\[\s*\d+%\]|\s+\[\s*\d+\s*\/\s*\d+\])?$/;
/** A -v result line (xdist's worker prefix too). */
const VERBOSE = /^(\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN) \S.*|\S+::\S.* (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)( \(.*\))?\s*(\[\s*\d+%\])?)$/;
const BANNER = /^(?:(=)={2,}|(!)!{2,}) (.*?) [=!]{3,}$/;
const TITLE = /^_{3,} (.*?) _{3,}$/;
const CAPTURED = /^-{3,} (Captured (?:stdout|stderr|log) (?:call|setup|teardown)) -{3,}$/;

export const pytest: Filter = {
  id: "test.pytest",
  start: (_input, ctx) => new PytestRun(ctx),
};

class PytestRun implements FilterRun {
  private readonly raw = new RawSize();
  private readonly out = new Kept();
  private readonly err = new Kept();
  private phase: "header" | "progress" | "sections" = "header";
  // Within a section: reading a traceback, a captured output, or other lines.
  private inCaptured = false;
  private afterFrame = false;
  private readonly captured = capturedHead();
  private resultsDropped = 0;
  /** The test's source around the failing line: marked where it stood. */
  private readonly source: DroppedRun;

  constructor(private readonly ctx: FilterContext) {
    this.source = new DroppedRun(ctx.rawLine);
  }

  line(stream: "out" | "err", t: string): void {
    this.raw.add(t);
    if (stream === "err") return this.err.push(t);
    const banner = BANNER.exec(t);
    if (banner) {
      if (/^test session starts/.test(banner[3]!)) return;
      this.closeSource();
      this.closeCaptured();
      this.afterFrame = false;
      this.phase = "sections";
      const mark = (banner[1] ?? banner[2]!).repeat(3);
      return this.out.push(`${mark} ${banner[3]} ${mark}`);
    }
    // -q prints no header: its first line is progress.
    if (this.phase === "header" && (PROGRESS.test(t) || VERBOSE.test(t))) this.phase = "progress";
    if (this.phase === "header") return this.headerLine(t);
    if (this.phase === "progress") {
      if (t.trim() === "") return;
      if (PROGRESS.test(t) || VERBOSE.test(t)) {
        this.resultsDropped++;
        return;
      }
      return this.out.push(t);
    }
    this.sectionLine(t);
  }

  end(): CompactOutput | null {
    this.closeSource();
    this.closeCaptured();
    const stdout = this.out.withMarker("lines", this.ctx.recall);
    // The passing tests are in the recall entry: the verdict line names it.
    const last = stdout.length - 1;
    if (this.resultsDropped && last >= 0 && /^(===|\d+ (passed|failed))/.test(stdout[last]!) && /\d+ passed/.test(stdout[last]!)) stdout[last] += ` [rtk recall ${this.ctx.recall.id()}]`;
    return finish(this.raw, { stdout, stderr: this.err.lines });
  }

  private closeSource(): void {
    for (const l of this.source.flush((n) => `${noun(n, "line")} of source`, this.ctx.recall)) this.out.push(l);
  }

  private closeCaptured(): void {
    if (this.captured.hidden) this.out.push(omitted(this.captured.hidden, "lines of captured output", this.ctx.recall));
    this.captured.reset();
    this.inCaptured = false;
  }

  /** A line of the session header: the environment goes, collection errors and what is not recognised stay. */
  private headerLine(t: string): void {
    if (/^(collecting|collected) /.test(t)) {
      this.phase = "progress";
      // The collected count says nothing the verdict line does not, unless it names errors.
      if (/error/.test(t)) this.out.push(t);
      return;
    }
    if (HEADER.test(t) || t.trim() === "") return;
    this.out.push(t);
  }

  private sectionLine(t: string): void {
    const out = this.out;
    const title = TITLE.exec(t);
    if (title) {
      this.closeSource();
      this.closeCaptured();
      this.afterFrame = false;
      return out.push(`___ ${title[1]} ___`);
    }
    const cap = CAPTURED.exec(t);
    if (cap) {
      this.closeSource();
      this.closeCaptured();
      this.inCaptured = true;
      return out.push(`--- ${cap[1]} ---`);
    }
    if (this.inCaptured) {
      if (this.captured.take()) out.push(t);
      return;
    }
    if (t.trim() === "" || /^(_ )+_?\s*$/.test(t) || /^-- Docs: https:\/\/docs\.pytest\.org/.test(t)) return;
    // The test's source around the failing line and caret underlines go, marked; after a `file:line: in func` frame (--tb=short) the line is the frame's own.
    if ((/^ {4}/.test(t) && !this.afterFrame) || /^\s+\^+\s*$/.test(t)) {
      this.afterFrame = false;
      return this.source.add([t]);
    }
    this.closeSource();
    this.afterFrame = /^\S+:\d+: in /.test(t);
    out.push(t);
  }
}
