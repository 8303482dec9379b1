// Linters with one line per problem: hadolint, rubocop, markdownlint.
import { argValue, hasArg } from "./common.js";
import { lineDiagnostics } from "./lines.js";

/** `hadolint Dockerfile`: `Dockerfile:3 DL3008 warning: message`. */
export const hadolint = lineDiagnostics({
  id: "diagnostics.hadolint",
  patterns: [/^(?<file>\S+?):(?<line>\d+) (?<code>(?:DL|SC)\d+) (?<severity>error|warning|info|style): (?<message>.*)$/],
  passThrough: (input) => argValue(input.argv, input.toolIndex + 1, ["-f", "--format"]) !== null || hasArg(input.argv, input.toolIndex + 1, ["--help", "-h", "--version", "-v"]),
  linter: true,
});

/** `rubocop`: `file:line:col: C: [Correctable] Cop/Name: message`, the source and caret under it; its tally. */
export const rubocop = lineDiagnostics({
  id: "diagnostics.rubocop",
  patterns: [/^(?<file>[^\s:][^:]*):(?<line>\d+):(?<col>\d+): (?<severity>[CWEFRI]): (?:\[(?:Correctable|Corrected|Todo)\] )?(?<code>[A-Z]\w*\/\w+): (?<message>.*)$/],
  severities: { C: "convention", W: "warning", E: "error", F: "fatal", R: "refactor", I: "info" },
  frameToCaret: true,
  drop: /^Inspecting \d+ files?$|^[.CWEFRI]+$|^Offenses:$/,
  summary: /^\d+ files? inspected/,
  passThrough: (input) =>
    argValue(input.argv, input.toolIndex + 1, ["-f", "--format"]) !== null ||
    hasArg(input.argv, input.toolIndex + 1, ["--help", "-h", "--version", "-v", "-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-gen-config", "--show-cops"]),
  linter: true,
});

/** `markdownlint` (markdownlint-cli): `file:line[:col] MD013/line-length message [detail]`, on stderr. */
export const markdownlint = lineDiagnostics({
  id: "diagnostics.markdownlint",
  patterns: [/^(?<file>[^\s:][^:]*):(?<line>\d+)(?::(?<col>\d+))? (?:(?<severity>error|warning) )?(?<code>MD\d+(?:\/[\w-]+)+) (?<message>.*)$/],
  passThrough: (input) => hasArg(input.argv, input.toolIndex + 1, ["--json", "-j", "--help", "-h", "--version", "-V", "-o", "--output", "--fix"]),
  linter: true,
});
