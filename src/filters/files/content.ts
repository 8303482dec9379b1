// `cat`, `head`, `tail`: file contents, verbatim. Only output longer than the
// content budget (`[limits] content_chars`, 30,000 characters: where hosts cut
// a tool result blindly) is shortened: the first lines that fit in half the
// budget and the last lines that fit in the rest, the lines between named by
// their range (`… lines 151–272 (122) omitted [rtk recall <id> --lines
// 151-272]`, numbered as lines of the output); in that case a line longer than
// MAX_LINE is cut, marked with the characters it hides. `==> file <==` headers
// of head/tail inside the hidden part stay, each between its own ranges.
// Memory holds the head and the tail, never the whole output. Output that is
// not UTF-8 text (a binary or Latin-1 file, NUL bytes) is printed as its bytes,
// whatever its size: the runtime reads lines as text, which would change them.
//
// Follow invocations (`tail -f`, `-F`, `--follow`) and reads of a FIFO, socket
// or character device run with rtk's own stdio: their bytes arrive as the tool
// writes them, unchanged, and the tool sees its reader go (`| head` ends it).
import { HeadTail, limitsOf, omittedLines } from "../budget.js";
import { ErrorLines, NO_FILES } from "../kit.js";
import { omitted, type FileProbe, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { given, parseArgs, toolArgs } from "./common.js";

const MAX_LINE = 4000;
/** Room kept in the budget for the markers, so the whole output stays within it. */
const MARKER_ROOM = 256;
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
function readsStream(input: FilterInput, files: FileProbe): boolean {
  const tool = input.route.tool;
  const p = parseArgs(toolArgs(input), tool === "cat" ? { shortWithValue: "", longWithValue: [] } : SPEC);
  return p.operands.some((f) => f !== "-" && files.isStream(f));
}

function streams(input: FilterInput, files: FileProbe = NO_FILES): boolean {
  return isFollow(input) || readsStream(input, files);
}

interface Held {
  /** At most MAX_LINE + 1 characters of the line. */
  text: string;
  length: number;
  /** Its line number in the output, from 1. */
  n: number;
}

export const content: Filter = {
  id: "content",
  // A file's lines, byte for byte (the head and tail of a huge one too).
  lineForm: () => "verbatim",
  inherits: streams,
  start(input, ctx): FilterRun {
    const { recall } = ctx;
    const headers = input.route.tool !== "cat";
    const err = new ErrorLines();
    /** What left the tail: ranges of hidden lines, and the headers kept between them. */
    const middle: ({ first: number; last: number } | string)[] = [];
    let keptHeaders = 0;
    let chars = 0;

    const hide = (h: Held) => {
      if (headers && keptHeaders < MAX_KEPT_HEADERS && /^==> .* <==$/.test(h.text)) {
        keptHeaders++;
        middle.push(h.text);
        return;
      }
      const last = middle[middle.length - 1];
      if (typeof last === "object" && last.last === h.n - 1) last.last = h.n;
      else middle.push({ first: h.n, last: h.n });
    };
    // What a line costs as shown: a line past MAX_LINE is shown cut when anything is hidden.
    const kept = new HeadTail<Held>(Math.max(MARKER_ROOM, limitsOf(ctx).content - MARKER_ROOM), (h) => Math.min(h.length, MAX_LINE) + 1, hide);

    return {
      line(stream, text, cut = 0) {
        if (stream === "err") return err.add(text);
        chars += text.length + cut + 1;
        // A line the runtime cut still counts whole: its hidden characters are counted exactly.
        kept.push({ text: text.length > MAX_LINE ? text.slice(0, MAX_LINE + 1) : text, length: text.length + cut, n: kept.total + 1 });
      },
      end() {
        if (chars <= limitsOf(ctx).content) return null;
        const show = (h: Held) => (h.length > MAX_LINE ? `${h.text.slice(0, MAX_LINE)} ${omitted(h.length - MAX_LINE, "chars", recall)}` : h.text);
        const out = kept.head.map(show);
        for (const m of middle) out.push(typeof m === "string" ? m : omittedLines(m.first, m.last, recall));
        out.push(...kept.tail.map(show));
        return { stdout: out.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};
