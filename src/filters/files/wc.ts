// `wc`: the column padding goes; every count, every name and the total stay
// (`   3    5   26 src/a.ts` → `3 5 26 src/a.ts`). The counts are those the
// flags chose, in wc's order (lines, words, chars, bytes, max line length).
// Past MAX_LINES lines the middle is counted, with a recall handle; the last
// line (the total) always stays.
import { ErrorLines } from "../kit.js";
import { omitted, type Filter, type FilterRun } from "../types.js";
import { given, parseArgs, toolArgs } from "./common.js";

const MAX_LINES = 1000;

export const wc: Filter = {
  id: "wc",
  lineForm: () => "text",
  start(input, { recall }): FilterRun {
    const p = parseArgs(toolArgs(input), { shortWithValue: "", longWithValue: ["files0-from", "total"] });
    const skip = given(p, "", ["help", "version"]);
    const chosen = ["l", "w", "m", "c", "L"].filter((c, i) => given(p, c, [["lines", "words", "chars", "bytes", "max-line-length"][i]!])).length;
    const counts = chosen || 3;
    const row = new RegExp(`^ *(\\d+(?: +\\d+){${counts - 1}})(?: (.*))?$`);
    const err = new ErrorLines();
    const out: string[] = [];
    let last: string | null = null;
    let hidden = 0;
    let changed = false;
    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (skip) return;
        const m = row.exec(text);
        const compact = m ? m[1]!.split(/ +/).join(" ") + (m[2] !== undefined ? ` ${m[2]}` : "") : text;
        if (compact !== text) changed = true;
        if (out.length < MAX_LINES) return void out.push(compact);
        if (last !== null) {
          hidden++;
          changed = true;
        }
        last = compact;
      },
      end() {
        if (skip || !changed) return null;
        if (hidden) out.push(omitted(hidden, "lines", recall));
        if (last !== null) out.push(last);
        return { stdout: out.join("\n") + "\n", stderr: err.text(recall) };
      },
    };
  },
};
