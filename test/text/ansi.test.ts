// The escape sequences a filter never sees: each form, in text and in raw bytes
// cut between chunks (the byte stripper's other cases: test/runtime/run.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AnsiByteStripper, stripAnsi } from "../../src/text/ansi.js";

/** Coloured text as programs write it, and what a terminal shows of it. */
const FORMS: [string, string][] = [
  ["\x1b[31m-a\x1b[0m", "-a"],
  ["\x1b]0;title\x07x", "x"],
  ["\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", "link"],
  ["\x1bMx", "x"],
  // terminfo's sgr0 on xterm (rustfmt's diff, tput): a charset designation, then the reset.
  ["\x1b[31m-a\n\x1b(B\x1b[m\x1b[32m+b\n\x1b(B\x1b[m", "-a\n+b\n"],
  ["\x1b)0\x1b(0x\x1b(B", "x"],
  ["\x1b#8x", "x"],
  // Not a sequence: an escape alone at the end, and one before a control character.
  ["x\x1b", "x\x1b"],
  ["x\x1b\n", "x\x1b\n"],
];

test("stripAnsi takes every escape-introduced form, and nothing else", () => {
  for (const [raw, shown] of FORMS) assert.equal(stripAnsi(raw), shown, JSON.stringify(raw));
});

test("the byte stripper takes the forms with intermediate bytes, cut anywhere between two chunks", () => {
  for (const [raw, shown] of FORMS.filter(([r]) => /\x1b[ -/]/.test(r))) {
    const bytes = Buffer.from(raw, "latin1");
    for (let cut = 0; cut <= bytes.length; cut++) {
      const s = new AnsiByteStripper();
      const out = Buffer.concat([s.push(bytes.subarray(0, cut)), s.push(bytes.subarray(cut)), s.end()]);
      assert.equal(out.toString("latin1"), shown, `${JSON.stringify(raw)} cut at ${cut}`);
    }
  }
});
