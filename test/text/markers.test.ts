// The marker grammar (docs/markers.md): the forms, what does not parse, and
// every marker of every filter's golden output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseMarkers, parseOutputMarkers, type MarkerKind } from "../../src/text/markers.js";

const ROOT = join(import.meta.dirname, "..", "..");

const FORMS: [string, MarkerKind[]][] = [
  ["… +12 more lines [rtk recall 3f9a2c]", ["list"]],
  ["  … +2 more matches (and 4 context lines) in 3 more files [rtk recall 3f9a2c]: src/ a.ts (2)", ["list"]],
  ["… +5 more warnings in 2 more files [rtk recall 3f9a2c] (no-console 3, eqeqeq 2)", ["list"]],
  ["… +40 progress lines hidden [rtk recall 3f9a2c]", ["list"]],
  ["… lines 31–1200 (1170) omitted [rtk recall 3f9a2c --lines 31-1200]", ["lines"]],
  ["… 3 unchanged lines", ["context"]],
  ["… 1 unchanged line", ["context"]],
  ["READY  STATUS: NAME (AGE left out [rtk recall 3f9a2c])", ["columns"]],
  ["OPEN (3; branch, created left out [rtk recall 3f9a2c]):", ["columns"]],
  ["(mode/owner/date of 15 entries left out [rtk recall 3f9a2c])", ["columns"]],
  ["12:… +400 chars … return a … +900 more chars [rtk recall 3f9a2c]", ["chars", "chars"]],
  ["Tests:       5 passed, 5 total [rtk recall 3f9a2c]", ["summary"]],
  ["… +12 more lines [rtk recall unavailable]", ["list"]],
  ["plain line", []],
];

const BAD = [
  "… 15 entries omitted [rtk recall 3f9a2c]",
  "… lines 31–40 (10) omitted [rtk recall 3f9a2c --lines 30-40]",
  "(left out: Container ID [rtk recall 3f9a2c])",
  "a [rtk recall 3f9a2c] in the middle",
  "[rtk recall] without an id",
  "… +3 more [rtk recall 3f9a2c",
];

test("each form parses as its kind", () => {
  for (const [line, kinds] of FORMS) {
    const r = parseMarkers(line);
    assert.deepEqual(r.errors, [], line);
    assert.deepEqual(r.markers.map((m) => m.kind).sort(), [...kinds].sort(), line);
  }
});

test("what looks like a marker and is none is an error", () => {
  for (const line of BAD) assert.notDeepEqual(parseMarkers(line).errors, [], line);
});

test("a range marker's handle names its range", () => {
  const [m] = parseMarkers("… lines 31–1200 (1170) omitted [rtk recall 3f9a2c --lines 31-1200]").markers;
  assert.deepEqual(m, { kind: "lines", count: 1170, handle: { id: "3f9a2c", lines: [31, 1200] } });
});

function goldens(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? goldens(p) : n.endsWith(".txt") ? [p] : [];
  });
}

test("every marker of every filter's golden output parses by the grammar", () => {
  const files = goldens(join(ROOT, "test", "filters", "golden"));
  assert.ok(files.length > 300, `${files.length} golden files`);
  const errors: string[] = [];
  let markers = 0;
  for (const f of files) {
    // Goldens hold `ID` (or `<id>`) where a run's recall id was.
    const r = parseOutputMarkers(readFileSync(f, "utf8").replace(/\[rtk recall ID\b/g, "[rtk recall <id>"));
    markers += r.markers.length;
    errors.push(...r.errors.map((e) => `${f.slice(ROOT.length + 1)}: ${e}`));
  }
  assert.deepEqual(errors, []);
  assert.ok(markers > 200, `${markers} markers`);
});
