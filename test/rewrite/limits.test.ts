// The limits of the rewrite (src/rewrite/limits.ts): a command past its length,
// or whose reading outlasts its time, is not read — no rewrite, and no verdict
// of rtk's own (the host judges the command as typed). The clock is taken out of
// the question with a budget that has already run out.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Budget, parse } from "../../grammar/parse.js";
import { rewriteCommand, type PermissionSource } from "../../src/rewrite/rewrite.js";
import { fullRegistry } from "../../src/routes/registry.js";

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

  test("a syntax error is not a limit", () => {
    const r = parse('git status "', { budget: Budget.of(60_000) });
    assert.equal(!r.ok && r.error.limit, undefined);
  });
});

describe("rewriteCommand with limits", () => {
  const limits = (maxBytes: number, timeMs: number) => ({ registry: fullRegistry(), permissions: ALLOW_ALL, limits: { maxBytes, timeMs } });

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
