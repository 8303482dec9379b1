// `playwright test` (its list reporter, the default outside CI). Kept: every
// numbered failure (its title with file:line:col, the error, Expected/Received,
// the diff, a timeout, attachments and the error context file, the first frames
// of the user's code), errors outside any test (a spec that fails to load),
// the head of the console output printed between results, the summary counts
// with the failed and flaky lists (last), stderr whole (first). Dropped: the `Running N tests`
// line, the ✓/✘/- lines of the run listing (the failures after it restate
// each), source excerpts, library frames, the ─ rules, durations. A reporter
// chosen by the user or a listing passes through; the UI mode runs with rtk's own stdio.
import { omitted, type Filter, type FilterContext } from "../types.js";
import { capturedHead, Frames, Kept, markRecall, runnerFilter, toolArgs } from "./common.js";

const MACHINE = /^(--reporter(=.*)?|--list|--only-changed(=.*)?)$/;
const COUNTS = /^ {2}\d+ (failed|flaky|skipped|passed|did not run|interrupted)\b/;
const RULE = / ?─+$/;

function playwrightReader(ctx: FilterContext, kept: Kept) {
  let state: "list" | "details" | "summary" = "list";
  let passed = 0;
  const printed = capturedHead();
  const frames = new Frames(kept, "        ", ctx.recall, ctx.rawLine);
  const closePrinted = () => {
    if (printed.hidden) kept.push(omitted(printed.hidden, "lines of console output", ctx.recall));
    printed.reset();
  };
  return {
    get passed() {
      return passed;
    },
    line(t: string): void {
      if (t.trim() === "" || /^─+$/.test(t.trim())) return;
      if (COUNTS.test(t)) {
        frames.close();
        if (state === "list") closePrinted();
        state = "summary";
        return kept.push(t.replace(/ \([\d.]+m?s\)$| \([\d.]+m\)$/, ""));
      }
      if (state === "list") {
        if (/^Running \d+ tests? using \d+ workers?/.test(t)) return;
        if (/^\s+[✓✘-]\s+\d+ /.test(t)) {
          if (/^\s+✓/.test(t)) passed++;
          return;
        }
        // An error outside any test (a spec that does not load) reads as a failure's details.
        if (!/^(\w*Error|Error):? /.test(t) && !/^ {2}\d+\) /.test(t)) {
          if (printed.take()) kept.push(t);
          return;
        }
        closePrinted();
        state = "details";
      }
      if (state === "summary") return kept.push(t.replace(RULE, ""));
      if (/^ {2}\d+\) /.test(t)) {
        frames.close();
        return kept.push(t.replace(RULE, ""));
      }
      // Source excerpts: `    > 10 |   code`, `      11 |`, the caret line.
      if (/^\s*>?\s*\d+ \|/.test(t) || /^\s+\|\s*\^?\s*$/.test(t)) return;
      if (frames.js(t)) return;
      kept.push(t.replace(RULE, ""));
    },
    close(): void {
      frames.close();
      if (state === "list") closePrinted();
    },
  };
}

export const playwrightTest: Filter = {
  ...runnerFilter({
    id: "test.playwright",
    machine: MACHINE,
    reader: playwrightReader,
    finish(ctx, kept, [reader]) {
      const stdout = kept.out.withMarker("lines", ctx.recall);
      if (reader.passed) markRecall(stdout, /^ {2}\d+ passed\b/, ctx.recall);
      // Node's warnings go first, so that the counts are the last lines a merged `2>&1 | tail` sees.
      return { before: kept.err.withMarker("lines", ctx.recall), stdout };
    },
  }),
  // The UI mode and the inspector are interactive: they run as the tool's own.
  inherits: (input) => toolArgs(input).some((a) => a === "--ui" || a === "--debug" || /^--ui-(host|port)(=|$)/.test(a)),
};
