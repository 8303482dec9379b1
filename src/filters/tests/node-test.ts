// `node --test`: TAP (Node 20's reporter when the output is not a terminal)
// and the spec reporter (a terminal, Node 23+). Kept: each failing test's `not
// ok` line (or ✖ line) with its location, error, expected/actual and operator,
// the first stack frames outside Node's internals, failing suites, the
// summary counts. Dropped: passing tests and their YAML, subtest headers,
// plans, durations. A reporter chosen by the user passes through; --watch streams.
import type { FilterContext } from "../types.js";
import { Frames, Kept, markRecall, runnerFilter } from "./common.js";

const MACHINE = /^--test-reporter(=.*)?$/;
/** YAML keys of a failure that are timing or bookkeeping (its error's `code` stays). */
const NOISE_KEYS = /^\s+(duration_ms|type|failureType):/;

function nodeTestReader(ctx: FilterContext, kept: Kept) {
  // TAP: inside the YAML block of a failure (kept) or of a pass (dropped).
  let yaml: "fail" | "pass" | null = null;
  let inStack = false;
  const frames = new Frames(kept, "        ", ctx.recall, ctx.rawLine);
  let passed = 0;
  const closeStack = () => {
    frames.close();
    inStack = false;
  };
  return {
    get resultsDropped() {
      return passed;
    },
    line(t: string): void {
      if (t.trim() === "" || /^TAP version \d+$/.test(t) || /^\s*# Subtest: /.test(t) || /^\s*\d+\.\.\d+$/.test(t)) return;
      if (/^\s*ok \d+ /.test(t)) {
        closeStack();
        passed++;
        yaml = "pass";
        return;
      }
      if (/^\s*not ok \d+ /.test(t)) {
        closeStack();
        yaml = "fail";
        return kept.push(t);
      }
      if (yaml !== null && /^\s+---$/.test(t)) return;
      if (yaml !== null && /^\s+\.\.\.$/.test(t)) {
        closeStack();
        yaml = null;
        return;
      }
      if (yaml === "pass") return;
      if (yaml === "fail") {
        if (NOISE_KEYS.test(t)) return;
        if (/^\s+stack: \|-$/.test(t)) {
          inStack = true;
          return kept.push(t);
        }
        if (inStack) {
          if (/^\s+\w+:( |$)/.test(t)) closeStack();
          else {
            if (/\(node:|\(internal\/|node_modules\/|^\s+(async )?(Test|Suite|TestContext|Promise)\.[\w.]+ \(node:/.test(t) || /^\s+async Promise\.all/.test(t)) return frames.skip();
            return frames.add(t);
          }
        }
        return kept.push(t);
      }
      // TAP summary comments: keep the counts, not the duration.
      if (/^# duration_ms /.test(t)) return;
      // The spec reporter: passes, suites and durations go.
      if (/^\s*✔ /.test(t) || /^\s*▶ /.test(t) || /^\s*﹣ /.test(t) || /^ℹ duration_ms /.test(t)) {
        if (/^\s*✔ /.test(t)) passed++;
        return;
      }
      kept.push(t);
    },
    close: closeStack,
  };
}

export const nodeTest = runnerFilter({
  id: "test.node",
  watch: (args) => args.includes("--watch"),
  machine: MACHINE,
  reader: nodeTestReader,
  finish(ctx, { out, err }, [reader]) {
    const stdout = out.withMarker("lines", ctx.recall);
    if (reader.resultsDropped) markRecall(stdout, /^(# |ℹ )pass \d+/, ctx.recall);
    return { stdout, stderr: err.lines };
  },
});
