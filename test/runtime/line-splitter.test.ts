// The line splitter on its own: bytes in chunks → lines, as the runtime hands
// them to a filter (ended, plain, cut), and each line form's shaping.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LineSplitter, MAX_LINE, RawLineNumbers, formed } from "../../src/runtime/line-splitter.js";

function split(chunks: readonly (string | Buffer)[]): { lines: [string, boolean, boolean, number][]; binary: boolean } {
  const lines: [string, boolean, boolean, number][] = [];
  const sp = new LineSplitter((l, ended, plain, cut) => lines.push([l, ended, plain, cut]));
  for (const c of chunks) sp.push(typeof c === "string" ? Buffer.from(c) : c);
  sp.end();
  return { lines, binary: sp.binary };
}

describe("LineSplitter", () => {
  const euro = Buffer.from("€\n");
  const ROWS: { name: string; chunks: (string | Buffer)[]; lines: [string, boolean, boolean, number][]; binary?: boolean }[] = [
    {
      name: "lines with their ends",
      chunks: ["a\nb\n"],
      lines: [
        ["a", true, true, 0],
        ["b", true, true, 0],
      ],
    },
    {
      name: "a last line without its end",
      chunks: ["a\nb"],
      lines: [
        ["a", true, true, 0],
        ["b", false, false, 0],
      ],
    },
    { name: "a line across chunks", chunks: ["ab", "c\n"], lines: [["abc", true, true, 0]] },
    { name: "a character across chunks", chunks: [euro.subarray(0, 1), euro.subarray(1)], lines: [["€", true, true, 0]] },
    {
      name: "a CR or an escape makes a line not plain",
      chunks: ["a\rb\n", "\x1b[1mc\n"],
      lines: [
        ["a\rb", true, false, 0],
        ["\x1b[1mc", true, false, 0],
      ],
    },
    { name: "nothing", chunks: [], lines: [] },
    { name: "a NUL makes the output binary", chunks: ["a\0b\n"], lines: [["a\0b", true, true, 0]], binary: true },
    { name: "invalid UTF-8 makes the output binary", chunks: [Buffer.from([0xff, 0x0a])], lines: [["\ufffd", true, true, 0]], binary: true },
  ];
  for (const row of ROWS) {
    test(row.name, () => {
      const r = split(row.chunks);
      assert.deepEqual(r.lines, row.lines);
      assert.equal(r.binary, row.binary ?? false);
    });
  }

  test("a line past MAX_LINE is handed over cut, with the count of what was dropped", () => {
    const r = split(["x".repeat(MAX_LINE + 10), "y".repeat(5) + "\nz\n"]);
    assert.equal(r.lines.length, 2);
    assert.equal(r.lines[0]![0].length, MAX_LINE);
    assert.equal(r.lines[0]![3], 15);
    assert.deepEqual(r.lines[1], ["z", true, true, 0]);
  });
});

describe("line forms", () => {
  const line = "50%\r100% \x1b[32mdone\x1b[0m\r";
  for (const [form, want] of [
    ["terminal", "100% done"],
    ["text", "50%\r100% done\r"],
    ["patch", line],
    ["verbatim", line],
  ] as const) {
    test(form, () => assert.equal(formed(line, form), want));
  }
});

describe("RawLineNumbers: where each line stands in the recall entry (both streams, in the order they came)", () => {
  /** Feeds chunks of two streams as the runtime does; the number of each line handed over, by stream. */
  function numbered(chunks: readonly [0 | 1, string][]): { entry: string[]; lines: [0 | 1, string, number][] } {
    const numbers = new RawLineNumbers();
    const lines: [0 | 1, string, number][] = [];
    const splitters = ([0, 1] as const).map((s) => new LineSplitter((l) => lines.push([s, l, numbers.line()])));
    for (const [s, c] of chunks) {
      const b = Buffer.from(c);
      numbers.chunk(s, b);
      splitters[s]!.push(b);
    }
    for (const s of [0, 1] as const) {
      numbers.ending(s);
      splitters[s]!.end();
    }
    return {
      entry: chunks
        .map(([, c]) => c)
        .join("")
        .split("\n"),
      lines,
    };
  }

  test("whole lines of two streams interleaved: each line's number is its line in the entry", () => {
    const { entry, lines } = numbered([
      [0, "a\nb\n"],
      [1, "e1\n"],
      [0, "c\n"],
      [1, "e2\ne3\n"],
    ]);
    for (const [, text, n] of lines) assert.equal(entry[n - 1], text, `${text} at ${n}`);
    assert.deepEqual(
      lines.map(([s, t, n]) => `${s}${t}${n}`),
      ["0a1", "0b2", "1e13", "0c4", "1e25", "1e36"],
    );
  });

  test("a line in pieces starts where its first byte came; a last line with no newline is numbered too", () => {
    const { lines } = numbered([
      [0, "par"],
      [0, "tial\nnext"],
      [0, " one\n"],
      [1, "tail with no newline"],
    ]);
    assert.deepEqual(
      lines.map(([, t, n]) => [t, n]),
      [
        ["partial", 1],
        ["next one", 2],
        ["tail with no newline", 3],
      ],
    );
  });
});
