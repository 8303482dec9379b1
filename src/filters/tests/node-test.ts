// `node --test`: TAP (Node 20's reporter when the output is not a terminal)
// and the spec reporter (a terminal, Node 23+). Kept: each failing test's `not
// ok` line (or ✖ line) with its location, error, expected/actual and operator,
// the first stack frames outside Node's internals, failing suites, the
// summary counts. Dropped: passing tests and their YAML, subtest headers,
// plans, durations. A reporter chosen by the user passes through.
import { omitted, type Filter, type FilterContext, type FilterRun } from "../types.js";
import { finish, Kept, machineOutput, RawSize, toolArgs } from "./common.js";

const MACHINE = /^--test-reporter(=.*)?$/;
const FRAMES = 3;
/** YAML keys of a failure that are timing or bookkeeping. */
const NOISE_KEYS = /^\s+(duration_ms|type|code|failureType):/;

export function nodeTestReader(ctx: FilterContext, kept: Kept) {
  // TAP: inside the YAML block of a failure (kept) or of a pass (dropped).
  let yaml: "fail" | "pass" | null = null;
  let inStack = false;
  let frames = 0;
  let hidden = 0;
  let passed = 0;
  const closeStack = () => {
    if (hidden) kept.push(`        ${omitted(hidden, "frames", ctx.recall)}`);
    inStack = false;
    frames = 0;
    hidden = 0;
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
            if (/\(node:|\(internal\/|node_modules\/|^\s+(async )?(Test|Suite|TestContext|Promise)\.[\w.]+ \(node:/.test(t) || /^\s+async Promise\.all/.test(t)) return;
            if (frames < FRAMES) {
              frames++;
              kept.push(t);
            } else hidden++;
            return;
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

export const nodeTest: Filter = {
  id: "test.node",
  start(input, ctx): FilterRun {
    const pass = machineOutput(toolArgs(input), MACHINE);
    const raw = new RawSize();
    const out = new Kept();
    const err = new Kept();
    const reader = nodeTestReader(ctx, out);
    return {
      line(s, t) {
        raw.add(t);
        if (pass) return;
        if (s === "err") err.push(t);
        else reader.line(t);
      },
      end() {
        if (pass) return null;
        reader.close();
        return finish(ctx, raw, nodeTestFinish(ctx, out, err, reader.resultsDropped));
      },
    };
  },
};

export function nodeTestFinish(ctx: FilterContext, out: Kept, err: Kept, passed: number) {
  const stdout = [...out.lines];
  if (out.over) stdout.push(omitted(out.over, "lines", ctx.recall));
  const pass = stdout.findIndex((l) => /^(# |ℹ )pass \d+/.test(l));
  if (passed && pass >= 0) stdout[pass] += ` [rtk recall ${ctx.recall.id()}]`;
  return { stdout, stderr: err.lines };
}
