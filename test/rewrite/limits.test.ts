// The limits of the rewrite (src/rewrite/limits.ts): a command past its length,
// or whose reading takes more than its steps (or, last resort, its wall time), is
// not read — no rewrite, and no verdict of rtk's own (the host judges the command
// as typed). The clock is taken out of the question with a budget that has already
// run out, or with a clock of the test's own.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Budget, parse } from "../../grammar/parse.js";
import { COMMAND_LIMITS, rewriteCommand, type PermissionSource } from "../../src/rewrite/rewrite.js";
import { fullRegistry } from "../../src/routes/registry.js";
import { generateScript } from "../../bench/inputs/generate-script.js";
import { corpusAvailable, corpusInputs } from "../support/corpus.js";

const ALLOW_ALL: PermissionSource = () => ({ verdict: "allow" });
const spent = () => Budget.of(-1);

describe("parse with a budget", () => {
  test("a budget that has run out stops a long input, with a time limit error inside it", () => {
    const src = "git status | ".repeat(2000) + "cat";
    const r = parse(src, { budget: spent() });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.error.limit, "time");
    assert.match(r.error.message, /too complex/);
    assert.ok(r.error.offset > 0 && r.error.offset < src.length, `offset ${r.error.offset}`);
    assert.ok(parse(src).ok, "without a budget it parses");
  });

  test("the budget counts the commands inside backquotes too (each is parsed on its own)", () => {
    const r = parse("echo " + "`a`".repeat(1000), { budget: spent() });
    assert.equal(!r.ok && r.error.limit, "time");
  });

  test("a short command never looks at the clock: a spent budget does not stop it", () => {
    assert.ok(parse("git status && npm test | tail -5", { budget: spent() }).ok);
  });

  test("past its steps a parse stops, with the clock standing still", () => {
    const frozen = () => 0;
    const r = parse("git status | ".repeat(2000) + "cat", { budget: Budget.of(60_000, 1000, frozen) });
    assert.equal(!r.ok && r.error.limit, "time");
    assert.match(!r.ok ? r.error.message : "", /more than 1000 steps/);
    assert.ok(parse("git status | ".repeat(200) + "cat", { budget: Budget.of(60_000, 1000, frozen) }).ok);
  });

  test("characters count without tokens: one long word, one arithmetic expression", () => {
    for (const src of ["echo " + "a".repeat(40_000), "echo $((" + "1+".repeat(20_000) + "1))"]) {
      const b = Budget.of(60_000);
      assert.ok(parse(src, { budget: b }).ok);
      assert.ok(b.spent >= src.length / 32, `${src.slice(0, 12)}…: ${b.spent} steps`);
    }
  });

  test("a syntax error is not a limit", () => {
    const r = parse('git status "', { budget: Budget.of(60_000) });
    assert.equal(!r.ok && r.error.limit, undefined);
  });
});

describe("rewriteCommand with limits", () => {
  const limits = (maxBytes: number, timeMs: number, steps = Infinity) => ({ registry: fullRegistry(), permissions: ALLOW_ALL, limits: { maxBytes, timeMs, steps } });

  test("within the limits: rewritten and allowed", () => {
    const r = rewriteCommand("git status; git status", limits(64 * 1024, 60_000));
    assert.deepEqual([r.command, r.verdict, r.exitCode], ["rtk git status; rtk git status", "allow", 0]);
  });

  test("past the length: not read, no rewrite, no allow", () => {
    const src = Array(6000).fill("git status").join("; ");
    const r = rewriteCommand(src, limits(64 * 1024, 60_000));
    assert.deepEqual([r.command, r.verdict, r.exitCode, r.segments.length], [null, "default", 1, 0]);
    assert.equal(!r.parse.ok && r.parse.error.limit, "length");
    assert.match(!r.parse.ok ? r.parse.error.message : "", /longer than 64 KiB/);
  });

  test("the length is counted in UTF-8 bytes, not characters", () => {
    const src = "git status -- " + "é".repeat(40_000);
    assert.ok(src.length < 64 * 1024);
    const r = rewriteCommand(src, limits(64 * 1024, 60_000));
    assert.equal(!r.parse.ok && r.parse.error.limit, "length");
  });

  test("past the time: not read, no rewrite, no allow", () => {
    const src = Array(2000).fill("git status").join("; ");
    const r = rewriteCommand(src, limits(64 * 1024, -1));
    assert.deepEqual([r.command, r.verdict, r.exitCode, r.segments.length], [null, "default", 1, 0]);
    assert.equal(!r.parse.ok && r.parse.error.limit, "time");
  });

  test("no limits given: read whatever it costs", () => {
    const src = Array(6000).fill("git status").join("; ");
    const r = rewriteCommand(src, { registry: fullRegistry(), permissions: ALLOW_ALL });
    assert.equal(r.exitCode, 0);
  });
});

// The hot path's budget is work, not time: what it reads and what it refuses is
// the same on an idle machine and a busy one. A clock that advances by nearly a
// twentieth of the last resort at every reading (a machine thousands of times
// slower than any) decides nothing the frozen clock does not.
describe("the hot path's budget decides, not the clock", { skip: corpusAvailable() ? false : "corpus not found (../shared/corpus)" }, () => {
  const { steps, timeMs } = COMMAND_LIMITS;
  const frozen = () => 0;
  const crawling = () => {
    let t = 0;
    return () => (t += timeMs / 19.9);
  };
  const outcome = (src: string, now: () => number) => {
    const r = parse(src, { budget: Budget.of(timeMs, steps, now) });
    return r.ok ? "ok" : `${r.error.limit ?? "error"}: ${r.error.message}`;
  };

  test("every corpus input, and generated scripts around the limit, read alike with a frozen and a crawling clock", () => {
    const inputs = [...corpusInputs().map((c) => c.src), ...[2, 10, 20, 30].map((kb) => generateScript(kb << 10))];
    for (const src of inputs) assert.equal(outcome(src, crawling()), outcome(src, frozen), src.slice(0, 80));
    const refused = inputs.filter((src) => outcome(src, frozen) !== "ok").length;
    assert.ok(refused >= 2, `the largest generated scripts are over the budget (${refused} refused)`);
  });

  test("every corpus input is well within the budget", () => {
    let most = 0;
    for (const { src } of corpusInputs()) {
      const b = Budget.of(timeMs, steps, frozen);
      parse(src, { budget: b });
      most = Math.max(most, b.spent);
    }
    assert.ok(most * 4 <= steps, `the costliest corpus input takes ${most} of ${steps} steps`);
  });

  test("the rewrite's passes after the parse answer to the steps too", () => {
    const over = Array(2000).fill("git status").join("; ");
    const r = rewriteCommand(over, { registry: fullRegistry(), permissions: ALLOW_ALL, limits: { ...COMMAND_LIMITS, timeMs: 60_000 } });
    assert.equal(!r.parse.ok && r.parse.error.limit, "time");
    assert.match(!r.parse.ok ? r.parse.error.message : "", /more than 5000 steps/);
  });
});
