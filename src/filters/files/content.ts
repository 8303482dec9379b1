// `cat`, `head`, `tail`: file contents, verbatim. Only output that is huge
// (more than HUGE_LINES lines or HUGE_CHARS characters) is shortened: its first
// lines and its last lines, with the exact count of the lines between and a
// recall handle; in that case a line longer than MAX_LINE is cut, marked with
// the characters it hides. `==> file <==` headers of head/tail inside the
// hidden part stay, each between its own counts. Memory holds the head and a
// ring of the tail, never the whole output. Output that is not UTF-8 text (a
// binary or Latin-1 file, NUL bytes) is printed as its bytes, whatever its
// size: the runtime reads lines as text, which would change them.
//
// Follow invocations (`tail -f`, `-F`, `--follow`) and reads of a FIFO, socket
// or character device run with rtk's own stdio: their bytes arrive as the tool
// writes them, unchanged, and the tool sees its reader go (`| head` ends it).
import { statSync } from "node:fs";
import { omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { ErrorLines, given, parseArgs, toolArgs } from "./common.js";

const HUGE_LINES = 300;
const HUGE_CHARS = 64 * 1024;
const HEAD_LINES = 150;
const HEAD_CHARS = 24 * 1024;
const TAIL_LINES = 100;
const TAIL_CHARS = 16 * 1024;
const MAX_LINE = 4000;
const MAX_KEPT_HEADERS = 100;

const SPEC = { shortWithValue: "ncs", longWithValue: ["lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"] };

function isFollow(input: FilterInput): boolean {
  if (input.route.tool !== "tail") return false;
  const args = toolArgs(input);
  // The obsolete form: `tail -5f`, `tail +5f`.
  if (/^[-+]\d*[bcl]?f$/.test(args[0] ?? "")) return true;
  return given(parseArgs(args, SPEC), "fF", ["follow"]);
}

/** Operands that never end by themselves, or end only when a writer closes them. */
function readsStream(input: FilterInput): boolean {
  const tool = input.route.tool;
  const p = parseArgs(toolArgs(input), tool === "cat" ? { shortWithValue: "", longWithValue: [] } : SPEC);
  return p.operands.some((f) => {
    if (f === "-") return false;
    try {
      const st = statSync(f);
      return st.isFIFO() || st.isSocket() || st.isCharacterDevice();
    } catch {
      return false;
    }
  });
}

function streams(input: FilterInput): boolean {
  return isFollow(input) || readsStream(input);
}

interface Held {
  /** At most MAX_LINE + 1 characters of the line. */
  text: string;
  length: number;
}

export const content: Filter = {
  id: "content",
  // A file's lines, byte for byte (the head and tail of a huge one too).
  lineForm: () => "verbatim",
  inherits: streams,
  start(input, { recall }): FilterRun {
    const headers = input.route.tool !== "cat";
    const err = new ErrorLines();
    const head: Held[] = [];
    let headChars = 0;
    let headOpen = true;
    const tail: Held[] = [];
    let tailStart = 0;
    let tailChars = 0;
    /** What left the tail ring: counts of hidden lines, and the headers kept between them. */
    const middle: (number | string)[] = [];
    let keptHeaders = 0;
    let lines = 0;
    let chars = 0;

    const hide = (h: Held) => {
      if (headers && keptHeaders < MAX_KEPT_HEADERS && /^==> .* <==$/.test(h.text)) {
        keptHeaders++;
        middle.push(h.text);
        return;
      }
      if (typeof middle[middle.length - 1] === "number") (middle[middle.length - 1] as number)++;
      else middle.push(1);
    };

    return {
      line(stream, text, cut = 0) {
        if (stream === "err") return err.add(text);
        lines++;
        chars += text.length + cut + 1;
        // A line the runtime cut still counts whole: its hidden characters are counted exactly.
        const h: Held = { text: text.length > MAX_LINE ? text.slice(0, MAX_LINE + 1) : text, length: text.length + cut };
        const size = Math.min(h.length, MAX_LINE) + 1;
        if (headOpen && head.length < HEAD_LINES && headChars + size <= HEAD_CHARS) {
          head.push(h);
          headChars += size;
          return;
        }
        headOpen = false;
        tail.push(h);
        tailChars += size;
        while (tail.length - tailStart > 1 && (tail.length - tailStart > TAIL_LINES || tailChars > TAIL_CHARS)) {
          const gone = tail[tailStart++]!;
          tailChars -= Math.min(gone.length, MAX_LINE) + 1;
          hide(gone);
        }
        if (tailStart > 4 * TAIL_LINES) {
          tail.splice(0, tailStart);
          tailStart = 0;
        }
      },
      end() {
        if (lines <= HUGE_LINES && chars <= HUGE_CHARS) return null;
        const show = (h: Held) => (h.length > MAX_LINE ? `${h.text.slice(0, MAX_LINE)} ${omitted(h.length - MAX_LINE, "chars", recall)}` : h.text);
        const out = head.map(show);
        for (const m of middle) out.push(typeof m === "number" ? omitted(m, m === 1 ? "line" : "lines", recall) : m);
        out.push(...tail.slice(tailStart).map(show));
        return { stdout: out.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};
