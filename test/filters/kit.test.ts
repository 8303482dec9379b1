// The filter kit: each shape on its own, as a table of inputs and what comes
// out, and the file probe as filters see it (a fake stands in for the disk).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  BoundedLines,
  DroppedRun,
  ErrorLines,
  HeadCount,
  LineWindow,
  NO_FILES,
  counted,
  filesOf,
  fitCount,
  fitting,
  groupByDir,
  listWithin,
  noun,
  rawRun,
  remembered,
  runsByDir,
  splitDir,
  toolArgs,
  withoutDotSlash,
  type FileProbe,
} from "../../src/filters/kit.js";
import { content } from "../../src/filters/files/content.js";
import { grep } from "../../src/filters/files/grep.js";
import type { FilterInput } from "../../src/filters/types.js";
import { allRoutes } from "../../src/routes/registry.js";

const recall = { id: () => "abc1234" };
const lines = (n: number, prefix = "l") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/** A probe that knows the files and folders it is given, and nothing else. */
function fakeFiles(files: readonly string[], dirs: readonly string[] = [], streams: readonly string[] = []): FileProbe & { asked: string[] } {
  const asked: string[] = [];
  const ask = (set: readonly string[]) => (p: string) => (asked.push(p), set.includes(p));
  return { asked, isFile: ask(files), isDirectory: ask(dirs), isStream: ask(streams) };
}

function inputFor(argv: string[], routeId: string): FilterInput {
  const route = allRoutes().find((r) => r.id === routeId);
  assert.ok(route, routeId);
  return { argv, toolIndex: 0, subIndex: 1, route };
}

describe("words", () => {
  for (const [n, one, many, want] of [
    [0, "file", undefined, "0 files"],
    [1, "file", undefined, "1 file"],
    [2, "match", "matches", "2 matches"],
    [1, "match", "matches", "1 match"],
  ] as const) {
    test(`counted(${n}, ${one}) is ${want}`, () => {
      assert.equal(counted(n, one, many), want);
      assert.equal(noun(n, one, many), want.split(" ")[1]);
    });
  }

  test("toolArgs: the words after the tool word", () => {
    assert.deepEqual(toolArgs({ argv: ["env", "X=1", "jest", "--ci", "a.test.ts"], toolIndex: 2 }), ["--ci", "a.test.ts"]);
  });

  test("rawRun recognises nothing: the raw output is printed", () => {
    const run = rawRun();
    run.line("out", "x");
    assert.equal(run.end(0), null);
  });
});

describe("LineWindow", () => {
  const cases: { name: string; window: () => LineWindow; input: string[]; want: string[] }[] = [
    { name: "counted, everything fits", window: () => LineWindow.counted(2, 2), input: lines(4), want: lines(4) },
    { name: "counted, the middle counted", window: () => LineWindow.counted(2, 2), input: lines(10), want: ["l1", "l2", "… +6 more lines [rtk recall abc1234]", "l9", "l10"] },
    { name: "counted, one line hidden", window: () => LineWindow.counted(1, 1), input: lines(3), want: ["l1", "… +1 more line [rtk recall abc1234]", "l3"] },
    { name: "counted, head only", window: () => LineWindow.counted(2, 0), input: lines(5), want: ["l1", "l2", "… +3 more lines [rtk recall abc1234]"] },
    { name: "counted, tail only", window: () => LineWindow.counted(0, 2), input: lines(5), want: ["… +3 more lines [rtk recall abc1234]", "l4", "l5"] },
    { name: "within a budget, everything fits", window: () => LineWindow.within(100), input: lines(5), want: lines(5) },
    // Each line costs 3 or 4 characters: half the budget (10) holds l1–l3, the rest the newest that fit.
    { name: "within a budget, head and tail", window: () => LineWindow.within(20), input: lines(12), want: ["l1", "l2", "l3", "… +7 more lines [rtk recall abc1234]", "l11", "l12"] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const w = c.window();
      for (const l of c.input) w.push(l);
      assert.deepEqual(w.lines(recall), c.want);
      assert.equal(w.total, c.input.length);
      assert.equal(w.hidden, c.input.length - c.want.filter((l) => !l.startsWith("…")).length);
    });
  }

  test("the marker names what the lines are", () => {
    const w = LineWindow.counted(1, 0);
    for (const l of lines(3)) w.push(l);
    assert.deepEqual(w.lines(recall, "test", "tests"), ["l1", "… +2 more tests [rtk recall abc1234]"]);
  });

  test("memory holds the two ends only", () => {
    const w = LineWindow.counted(3, 3);
    for (let i = 0; i < 200_000; i++) w.push(`line ${i}`);
    assert.deepEqual(w.lines(recall), ["line 0", "line 1", "line 2", "… +199994 more lines [rtk recall abc1234]", "line 199997", "line 199998", "line 199999"]);
  });
});

describe("BoundedLines", () => {
  const cases: { name: string; max: number; admit: "whole" | "started"; maxItems?: number; input: string[]; held: string[]; dropped: number }[] = [
    { name: "started: held while the bound is not passed", max: 5, admit: "started", input: ["aaaa", "bb", "c", "d"], held: ["aaaa", "bb"], dropped: 2 },
    { name: "whole: held only when it fits", max: 5, admit: "whole", input: ["aaaa", "bb", "c"], held: ["aaaa"], dropped: 2 },
    { name: "whole: what is held is a prefix (a short line after a dropped one is dropped)", max: 6, admit: "whole", input: ["aaaa", "bbbbbb", "c"], held: ["aaaa"], dropped: 2 },
    { name: "a bound on the count", max: Infinity, admit: "started", maxItems: 2, input: ["a", "b", "c"], held: ["a", "b"], dropped: 1 },
    { name: "nothing over", max: 100, admit: "whole", input: ["a", "b"], held: ["a", "b"], dropped: 0 },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const b = new BoundedLines<string>(c.max, (l) => l.length + 1, c.admit, c.maxItems);
      const took = c.input.map((l) => b.add(l));
      assert.deepEqual(b.items, c.held);
      assert.equal(b.dropped, c.dropped);
      assert.deepEqual(
        took,
        c.input.map((_, i) => i < c.held.length),
      );
      assert.equal(b.full, c.dropped > 0);
    });
  }

  test("a 200 MB run holds no more than its bound", () => {
    const b = new BoundedLines<string>(1 << 20);
    const line = "x".repeat(999);
    for (let i = 0; i < 200_000; i++) b.add(line);
    assert.ok(b.chars <= (1 << 20) + 1000, `${b.chars} characters held`);
    assert.equal(b.items.length + b.dropped, 200_000);
  });

  test("ErrorLines keeps stderr whole within its bound, then counts", () => {
    const err = new ErrorLines(10);
    for (const l of ["first", "second", "third"]) err.add(l);
    assert.equal(err.text(recall), "first\n… +2 more error lines [rtk recall abc1234]\n");
    assert.equal(new ErrorLines().text(recall), "");
    const named = new ErrorLines(0, "stderr lines");
    named.add("x");
    assert.deepEqual(named.lines(recall), ["… +1 more stderr lines [rtk recall abc1234]"]);
  });

  test("withMarker: the lines held, then the count of the rest", () => {
    const held = new BoundedLines<string>(6);
    for (const l of ["one", "two", "three", "four"]) held.add(l);
    assert.deepEqual(held.withMarker("lines", recall), ["one", "two", "… +2 more lines [rtk recall abc1234]"]);
    const all = new BoundedLines<string>(100);
    all.add("one");
    assert.deepEqual(all.withMarker("lines", recall), ["one"]);
  });
});

describe("HeadCount", () => {
  test("the first of a run shown, the rest counted, until reset", () => {
    const head = new HeadCount(2);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => head.take()),
      [true, true, false, false],
    );
    assert.deepEqual([head.shown, head.hidden], [2, 2]);
    head.reset();
    assert.deepEqual([head.take(), head.shown, head.hidden], [true, 1, 0]);
  });
});

describe("lists within a budget", () => {
  const items = ["alpha", "beta", "gamma", "delta"];
  const cases: { name: string; chars: number; atLeast?: number; max?: number; want: number }[] = [
    { name: "all fit", chars: 100, want: 4 },
    { name: "the first that fit", chars: 11, want: 2 },
    { name: "none fit", chars: 3, want: 0 },
    { name: "at least one, whatever it costs", chars: 3, atLeast: 1, want: 1 },
    { name: "at most max", chars: 100, max: 3, want: 3 },
    { name: "exactly at the budget", chars: 5 + 4 + 5, want: 3 },
  ];
  for (const c of cases) {
    test(`fitCount: ${c.name}`, () => {
      assert.equal(
        fitCount(items, c.chars, (i) => i.length, { ...(c.atLeast !== undefined ? { atLeast: c.atLeast } : {}), ...(c.max !== undefined ? { max: c.max } : {}) }),
        c.want,
      );
    });
  }

  test("fitting counts each item with its separator, and shows one at least", () => {
    assert.deepEqual(fitting(items, 14), { shown: ["alpha", "beta"], more: 2 });
    assert.deepEqual(fitting(items, 1), { shown: ["alpha"], more: 3 });
    assert.deepEqual(fitting([], 10), { shown: [], more: 0 });
  });

  test("listWithin: the first that fit, then the exact count", () => {
    assert.equal(listWithin(items, 14, "paths", recall), "alpha, beta … +2 more paths [rtk recall abc1234]");
    assert.equal(listWithin(items, 100, "paths", recall), "alpha, beta, gamma, delta");
    assert.equal(listWithin(items, 12, "refs", recall, " "), "alpha beta … +2 more refs [rtk recall abc1234]");
  });
});

describe("paths by directory", () => {
  for (const [path, want] of [
    ["src/a.ts", { dir: "src/", name: "a.ts" }],
    ["a/b/c.ts", { dir: "a/b/", name: "c.ts" }],
    ["a.ts", null],
    ["src/", null],
    ["/", null],
  ] as const) {
    test(`splitDir(${path})`, () => assert.deepEqual(splitDir(path), want));
  }

  test("withoutDotSlash drops a leading ./ only", () => {
    assert.deepEqual(["./a", ".", "./", "a/./b", ".a"].map(withoutDotSlash), ["a", ".", "./", "a/./b", ".a"]);
  });

  test("groupByDir: names by directory in order of first appearance, top-level paths alone", () => {
    const { groups, alone } = groupByDir(["src/b.ts", "README.md", "test/x.ts", "src/a.ts", "src/"]);
    assert.deepEqual(
      [...groups],
      [
        ["src/", ["b.ts", "a.ts"]],
        ["test/", ["x.ts"]],
      ],
    );
    assert.deepEqual(alone, ["README.md", "src/"]);
  });

  test("runsByDir: neighbours of one directory together, an item without one alone", () => {
    const dirOf = (p: string) => splitDir(p)?.dir ?? null;
    assert.deepEqual(runsByDir(["a/x", "a/y", "b/z", "top", "top2", "a/w"], dirOf), [
      { dir: "a/", items: ["a/x", "a/y"] },
      { dir: "b/", items: ["b/z"] },
      { dir: null, items: ["top"] },
      { dir: null, items: ["top2"] },
      { dir: "a/", items: ["a/w"] },
    ]);
  });
});

describe("the file probe", () => {
  test("without one, nothing exists", () => {
    assert.equal(filesOf({}), NO_FILES);
    assert.deepEqual([NO_FILES.isFile("/"), NO_FILES.isDirectory("/"), NO_FILES.isStream("/dev/null")], [false, false, false]);
  });

  test("remembered asks once per path, within its bound", () => {
    const fake = fakeFiles(["a"]);
    const probe = remembered(fake, 2);
    for (let i = 0; i < 3; i++) for (const p of ["a", "b", "c"]) probe.isFile(p);
    assert.deepEqual(fake.asked, ["a", "b", "c", "c", "c"]);
  });

  test("grep asks the probe, not the disk: a file named like a line number is a file", () => {
    const out = Array.from({ length: 3 }, (_, i) => `2024-01-02.log:${i + 1}:match ${i + 1}`);
    const feed = (files: FileProbe) => {
      const run = grep.start(inputFor(["rg", "-n", "match"], "rg"), { recall, files, emit: { out() {}, err() {} } });
      for (const l of out) run.line("out", l);
      return run.end(0)?.stdout;
    };
    assert.equal(feed(fakeFiles(["2024-01-02.log"])), "2024-01-02.log\n  1:match 1\n  2:match 2\n  3:match 3\n");
    // Without such a file, `2024-…` is not a name: the lines are the output of one file.
    assert.equal(feed(NO_FILES), "2024-01-02.log:1:match 1\n2024-01-02.log:2:match 2\n2024-01-02.log:3:match 3\n");
  });

  test("grep -r with a folder operand: the probe says it is one, so the lines name files", () => {
    const files = fakeFiles([], ["src"]);
    const run = grep.start(inputFor(["grep", "-rn", "x", "src"], "grep"), { recall, files, emit: { out() {}, err() {} } });
    run.line("out", "src/a.ts:1:x");
    assert.equal(run.end(0)?.stdout, "src/a.ts\n  1:x\n");
    assert.ok(files.asked.includes("src"));
  });

  test("cat of a stream runs with rtk's stdio: the probe says which operand is one", () => {
    const input = inputFor(["cat", "a.txt", "pipe"], "cat");
    assert.equal(content.inherits!(input, fakeFiles(["a.txt"], [], ["pipe"])), true);
    assert.equal(content.inherits!(input, fakeFiles(["a.txt", "pipe"])), false);
    assert.equal(content.inherits!(input), false);
  });
});

describe("DroppedRun: lines dropped where they stood", () => {
  const recall = { id: () => "abc1234" };
  const long = (n: number) => `    ${n} |   const value${n} = compute(input, options, ${n}); // a line of source`;

  test("one run of the entry: its count and its range; then it starts again", () => {
    let at = 0;
    const run = new DroppedRun(() => at);
    for (at = 12; at <= 17; at++) run.add([long(at)]);
    assert.deepEqual(
      run.flush((n) => `${noun(n, "line")} of source`, recall),
      ["… 6 lines of source [rtk recall abc1234 --lines 12-17]"],
    );
    assert.deepEqual(
      run.flush((n) => noun(n, "line"), recall),
      [],
      "nothing since",
    );
  });

  test("lines apart, or with no place known: the handle of the whole entry", () => {
    let at = 0;
    const apart = new DroppedRun(() => at);
    for (at of [3, 4, 9]) apart.add([long(at)]);
    assert.deepEqual(
      apart.flush((n) => noun(n, "line"), recall),
      ["… 3 lines [rtk recall abc1234]"],
    );
    const unplaced = new DroppedRun();
    for (let i = 0; i < 3; i++) unplaced.add([long(i)]);
    assert.deepEqual(
      unplaced.flush((n) => noun(n, "line"), recall),
      ["… 3 lines [rtk recall abc1234]"],
    );
  });

  test("a run shorter than its marker (and what it must save) is shown instead, and reserves no entry", () => {
    let asked = 0;
    const counting = { id: () => (asked++, "abc1234") };
    let at = 0;
    const run = new DroppedRun(() => at);
    for (at = 1; at <= 2; at++) run.add([`  ${at}|`]);
    assert.deepEqual(
      run.flush((n) => `${noun(n, "line")} of source`, counting),
      ["  1|", "  2|"],
    );
    assert.equal(asked, 0, "no handle asked for");
  });

  test("items of several lines (a frame and its location) are counted as items, ranged by their lines", () => {
    let at = 0;
    const run = new DroppedRun(() => at);
    at = 41;
    run.add(2);
    at = 43;
    run.add(2);
    assert.equal(run.count, 2);
    assert.deepEqual(run.range, [40, 43]);
  });
});
