// `phpunit` (its default progress output and --testdox). Kept: every numbered
// error, failure, warning and risky test (the test's name with its data set,
// the message, the expected/actual diff, the first file:line frames), testdox's
// ✘ entries with their boxed details, the verdict (OK, FAILURES!, ERRORS!) and
// the counts, what the tests printed (its head), stderr (PHP's fatal
// errors) whole but for the frames of its stack traces past the first. Dropped: the version banner, Runtime/Configuration lines, progress
// characters and their counters, testdox's ✔ and ↩ lines, Time and Memory,
// separators. Machine output (a log written to stdout, --list-tests) passes through.
import { omitted, type FilterContext } from "../types.js";
import { capturedHead, Frames, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^(--log-junit|--log-teamcity|--testdox-text|--testdox-html|--testdox-xml|--teamcity|--list-tests(-xml)?|--list-groups|--list-suites)(=.*)?$/;
const VERDICT = /^(OK \(\d+ tests?, \d+ assertions?\)|OK, but |ERRORS!|FAILURES!|WARNINGS!|Tests: \d+, Assertions: \d+|No tests executed!)/;
/** A section of numbered problems: `There was 1 error:`, `There were 3 failures:`. */
const SECTION = /^There (was|were) \d+ [\w ]+:$/;

function phpunitReader(ctx: FilterContext, out: Kept, args: readonly string[]) {
  const testdox = args.includes("--testdox");
  const printed = capturedHead();
  const frames = new Frames(out, "", ctx.recall, ctx.rawLine);
  let section: "listing" | "details" = "listing";
  let results = 0;
  // testdox: inside a ✔ entry (dropped) or a ✘ one (kept).
  let entry: "pass" | "fail" | null = null;

  const closeListing = () => {
    if (printed.hidden) out.push(omitted(printed.hidden, "lines of output", ctx.recall));
    printed.reset();
  };
  return {
    get resultsDropped() {
      return results;
    },
    line(t: string): void {
      if (t.trim() === "" || /^PHPUnit \d+\.\d+.* by Sebastian Bergmann/.test(t) || /^(Runtime|Configuration|Random Seed):\s/.test(t) || /^Time: [\d:.]+( ms)?, Memory: /.test(t)) return;
      if (SECTION.test(t) || VERDICT.test(t)) {
        frames.close();
        if (section === "listing") closeListing();
        section = "details";
        return out.push(t);
      }
      if (section === "listing") {
        // Progress: `....F.E   63 / 120 ( 52%)`; testdox: `✔ Name`, `✘ Name` and its `│` box.
        if (/^[.FEWRSIDN]+(\s+\d+ \/ \d+ \(\s*\d+%\))?$/.test(t)) {
          results += t.replace(/\s.*$/, "").length;
          return;
        }
        const dox = /^ ([✔✘↩∅☢]) /.exec(t);
        if (dox) {
          entry = dox[1] === "✘" ? "fail" : "pass";
          results++;
          if (entry === "fail") out.push(t);
          return;
        }
        if (entry !== null && /^ {3}│/.test(t)) {
          if (entry === "fail" && !/^ {3}│\s*$/.test(t)) out.push(t);
          return;
        }
        entry = null;
        // A group name of testdox stands before its entries: dropped; anything else is what the tests printed.
        if (testdox && /^[A-Z][\w\\ ]*$/.test(t)) return;
        if (printed.take()) out.push(t);
        return;
      }
      if (t === "--") return frames.close();
      if (/^\d+\) /.test(t)) frames.close();
      if (/^\S+\.php:\d+$/.test(t)) return frames.add(t);
      out.push(t);
    },
    close(): void {
      frames.close();
      if (section === "listing") closeListing();
    },
  };
}

/** stderr: PHP's own errors (a fatal error while loading a test) whole, the first frames of their traces. */
function phpErrors(ctx: FilterContext, err: Kept) {
  const frames = new Frames(err, "", ctx.recall, ctx.rawLine);
  return {
    line(t: string): void {
      if (/^#\d+ /.test(t)) return frames.add(t);
      frames.close();
      err.push(t);
    },
    close: () => frames.close(),
  };
}

export const phpunit = runnerFilter({
  id: "test.phpunit",
  machine: MACHINE,
  reader: phpunitReader,
  stderr: { read: phpErrors },
  finish(ctx, { out, err }, [reader]) {
    const stdout = out.withMarker("lines", ctx.recall);
    if (reader.resultsDropped) markRecall(stdout, /^(OK \(|Tests: )/, ctx.recall);
    return { before: err.withMarker("lines", ctx.recall), stdout };
  },
});
