// `ruff check` (concise and full formats) and `ruff format --check`: each
// violation with file:line:col, code and message, its `help:` line, grouped
// by file; `Found N errors.`, the fixable hint, `All checks passed!`, `N files
// would be reformatted` word for word. Code frames go. `--output-format` other
// than concise/full passes through.
import { argValue, hasArg } from "./common.js";
import { lineDiagnostics } from "./lines.js";

export const ruff = lineDiagnostics({
  id: "diagnostics.ruff",
  patterns: [
    /^(?<file>[^\s:][^:]*):(?<line>\d+):(?<col>\d+): (?<code>[A-Z]+\d+) (?<message>.*)$/,
    // Its full format since 0.x: `F401 [*] message` then ` --> file:line:col`.
  ],
  continuation: /^\s*= (help: .*)$|^(help: .*)$/,
  drop: /^\s*\d*\s*\||^\s*-->|^\s*\|$/,
  summary:
    /^(?:Found \d+ errors?|\[\*\] \d+ fixable|No fixes available|All checks passed!|\d+ files? (?:would be reformatted|already formatted|left unchanged)|Would reformat: |\d+ hidden fixes? can be enabled)/,
  passThrough: (input) => {
    const f = argValue(input.argv, input.subIndex + 1, ["--output-format", "--format"]);
    return (f !== null && f !== "concise" && f !== "full") || hasArg(input.argv, input.subIndex + 1, ["--diff", "--statistics", "--show-settings", "--show-files", "--help", "-h", "--watch", "-w"]);
  },
  linter: true,
});
