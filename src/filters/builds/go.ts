// `go build` and `go vet`: each error with file:line:col and message,
// grouped by file. The `# package` headings go (the paths say where); other
// lines (`go: …` module errors) are kept. `go vet -json` passes through.
import { hasArg } from "./common.js";
import { lineDiagnostics } from "./lines.js";

export const goBuild = lineDiagnostics({
  id: "diagnostics.go",
  patterns: [/^(?:vet: )?(?<file>[^\s:][^:]*\.go):(?<line>\d+):(?:(?<col>\d+):)? (?<message>.*)$/],
  continuation: /^\t(\S.*)$/,
  drop: /^# \S+$/,
  passThrough: (input) => hasArg(input.argv, input.subIndex + 1, ["-json", "-n", "-x", "-help", "-h"]),
});

/** `golangci-lint run`: `file:line:col: message (linter)` with a source frame under it; its `N issues:` tally. */
export const golangciLint = lineDiagnostics({
  id: "diagnostics.golangci",
  patterns: [/^(?<file>[^\s:][^:]*\.go):(?<line>\d+):(?:(?<col>\d+):)? (?<message>.*) \((?<code>[\w-]+)\)$/],
  severity: "warning",
  frameToCaret: true,
  summary: /^\d+ issues?[:.]|^\* [\w-]+: \d+$|^0 issues\.$/,
  passThrough: (input) => hasArg(input.argv, input.subIndex + 1, ["--out-format", "--output.json.path", "--help", "-h", "--version"]),
  linter: true,
});
