// `prettier --check`: the files whose formatting differs, one per line, and
// prettier's verdict word for word; a syntax error with its message (its code
// frame goes).
//
//   src/a.js
//   src/b.js
//   [warn] Code style issues found in 2 files. Run Prettier with --write to fix.
//
// What goes: `Checking formatting...` and the `[warn] ` before each file.
// `--list-different` prints the paths alone already: it passes through.
import { linesText, type Filter, type FilterRun } from "../types.js";
import { hasArg, OtherLines } from "./common.js";

const VERDICT = /^\[warn\] (?:Code style issues|All matched files)|^All matched files use Prettier|^Error occurred when checking code style/;
const FRAME = /^\[error\] (?:[> ] *\d+ \||\s+\|)/;

export const prettier: Filter = {
  id: "diagnostics.prettier",
  start(input, ctx): FilterRun {
    const passThrough = hasArg(input.argv, input.toolIndex + 1, ["-l", "--list-different", "--help", "-h", "--version", "-v", "--file-info", "--find-config-path", "--support-info"]);
    const files = new OtherLines(256 * 1024);
    const err = new OtherLines();
    const out = new OtherLines();
    const verdict: string[] = [];
    return {
      line(stream, text) {
        if (passThrough) return;
        if (VERDICT.test(text)) return void verdict.push(text);
        if (stream === "out") {
          if (text !== "Checking formatting...") out.add(text);
          return;
        }
        const warn = /^\[warn\] (.+)$/.exec(text);
        if (warn) return files.add(warn[1]!);
        if (!FRAME.test(text)) err.add(text);
      },
      end() {
        if (passThrough || !verdict.length) return null;
        // The verdict stays on the stream prettier printed it on.
        const tagged = verdict.filter((v) => v.startsWith("["));
        const plain = verdict.filter((v) => !v.startsWith("["));
        return { stdout: linesText([...out.lines(ctx.recall), ...plain]), stderr: linesText([...files.lines(ctx.recall), ...err.lines(ctx.recall), ...tagged]) };
      },
    };
  },
};
