// What a filtered run prints once the tool has ended: one row per case of
// chooseOutput (spec/runtime.md, "Never worse, never silent"). The wiring
// around it is tested end to end in run.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { chooseOutput, overlongNote, partialRecallNote, withheldNote, type OutputChoice, type RunFacts } from "../../src/runtime/choose-output.js";

const MiB = 1 << 20;
const short = { stdout: "ok\n", stderr: "" };
const long = { stdout: "x".repeat(200) + "\n", stderr: "" };

/** An ordinary run: a filter that made a compact form of 3 bytes out of 100. */
const base: RunFacts = { sensitive: false, streaming: false, raw: false, failed: false, compact: short, rawBytes: 100, verbatim: false, overlong: 0, recallLimit: 16 * MiB, passthroughBytes: 0 };

const compact = (c = short, overlong = 0, partialRecall = false): OutputChoice => ({ print: "compact", compact: c, overlong, partialRecall });
const raw = (plain: boolean): OutputChoice => ({ print: "raw", plain });

const ROWS: { name: string; facts: Partial<RunFacts>; want: OutputChoice }[] = [
  { name: "a shorter compact form is printed", facts: {}, want: compact() },
  { name: "a compact form as long as the raw output: the raw output, without escape sequences", facts: { compact: { stdout: "x".repeat(99) + "\n", stderr: "" } }, want: raw(true) },
  { name: "a compact form longer than the raw output: the raw output", facts: { compact: long }, want: raw(true) },
  { name: "stderr counts in the compact form's size", facts: { compact: { stdout: "", stderr: "e".repeat(100) } }, want: raw(true) },
  { name: "the filter did not recognise the output (null): the raw output", facts: { compact: null }, want: raw(true) },
  { name: "the filter failed: the raw output", facts: { compact: null, failed: true }, want: raw(true) },
  { name: "--raw: the raw output as the tool printed it, escape sequences too", facts: { raw: true }, want: raw(false) },
  { name: "content not compacted keeps its bytes (escape sequences too)", facts: { verbatim: true, compact: null }, want: raw(false) },
  { name: "lines cut on their way to the filter: the compact form says so", facts: { overlong: 2 }, want: compact(short, 2) },
  { name: "content cut on its way: its own markers say so, no note", facts: { overlong: 2, verbatim: true }, want: compact(short, 0) },
  { name: "an output larger than the recall store keeps: the compact form says the entry holds its start", facts: { rawBytes: 17 * MiB }, want: compact(short, 0, true) },
  { name: "an output as large as the recall store keeps: nothing to say", facts: { rawBytes: 16 * MiB }, want: compact() },
  { name: "a sensitive filter that failed: nothing of the output", facts: { sensitive: true, failed: true, compact: null }, want: { print: "withheld" } },
  { name: "a sensitive filter's compact form is printed even when not shorter (its masks are the point)", facts: { sensitive: true, compact: long }, want: compact(long) },
  { name: "a sensitive filter that hands the output back (null): the raw output", facts: { sensitive: true, compact: null }, want: raw(true) },
  { name: "a sensitive streaming filter that failed: nothing of the output", facts: { sensitive: true, streaming: true, failed: true, compact: null }, want: { print: "withheld" } },
  { name: "a streaming filter's last words are printed as they are", facts: { streaming: true, compact: long }, want: compact(long) },
  { name: "a streaming filter with nothing more to say: nothing", facts: { streaming: true, compact: null }, want: { print: "nothing" } },
  { name: "a streaming filter that failed: its lines went out raw as they came, nothing more", facts: { streaming: true, failed: true, compact: null }, want: { print: "nothing" } },
  { name: "a raw output shorter than the passthrough size: printed as the tool printed it", facts: { passthroughBytes: 101 }, want: { print: "raw", plain: false, short: true } },
  { name: "a raw output as long as the passthrough size: compacted", facts: { passthroughBytes: 100 }, want: compact() },
  { name: "a sensitive filter's compact form even when the output is short (its masks are the point)", facts: { sensitive: true, passthroughBytes: 1000 }, want: compact() },
  { name: "a streaming filter's last words even when the output is short", facts: { streaming: true, passthroughBytes: 1000 }, want: compact() },
  { name: "a filter that did not recognise a short output: the raw output, a fallback", facts: { compact: null, passthroughBytes: 1000 }, want: raw(true) },
  { name: "the compact form's stderr-first part counts in its size", facts: { compact: { stdout: "", stderr: "", before: "e".repeat(100) } }, want: raw(true) },
];

describe("chooseOutput", () => {
  for (const row of ROWS) {
    test(row.name, () => {
      assert.deepEqual(chooseOutput({ ...base, ...row.facts }), row.want);
    });
  }
});

describe("what stderr says", () => {
  test("withheld", () => {
    assert.equal(withheldNote("env", ["env", "-0"]), "rtk: the env filter failed; its output is withheld because it may hold secrets (`rtk proxy env -0` prints it)\n");
  });

  test("lines cut", () => {
    assert.equal(overlongNote(1, MiB, "abc1234"), "rtk: 1 line longer than 1 MiB reached the filter cut; the whole output: [rtk recall abc1234]\n");
    assert.equal(overlongNote(3, MiB, "abc1234"), "rtk: 3 lines longer than 1 MiB reached the filter cut; the whole output: [rtk recall abc1234]\n");
  });

  test("recall holds the start", () => {
    assert.equal(partialRecallNote("abc1234", 16 * MiB, 20.25 * MiB), "rtk: [rtk recall abc1234] holds the first 16 MiB of the 20.3 MiB output\n");
  });
});
