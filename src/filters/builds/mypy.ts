// `mypy` (also `dmypy run`): each error with file:line[:col], message and
// [code], grouped by file; a `note:` goes under the error it explains;
// `Found N errors in M files (checked K source files)` or `Success: …` word for
// word. `--pretty` frames go. Machine formats (`-O json`) pass through.
import { argValue, hasArg } from "./common.js";
import { lineDiagnostics } from "./lines.js";

export const mypy = lineDiagnostics({
  id: "diagnostics.mypy",
  patterns: [/^(?<file>[^\s:][^:]*):(?<line>\d+):(?:(?<col>\d+):)? (?<severity>error|warning|note): (?<message>.*?)(?: {2}\[(?<code>[\w-]+)\])?$/],
  notes: ["note"],
  summary: /^(?:Found \d+ errors? in \d+ files?|Success: no issues found)/,
  drop: /^\s+\^~*$/,
  passThrough: (input) => argValue(input.argv, input.toolIndex + 1, ["-O", "--output"]) !== null || hasArg(input.argv, input.toolIndex + 1, ["--version", "-V", "--help", "-h"]),
  linter: true,
});
