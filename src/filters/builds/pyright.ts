// `pyright` (and `basedpyright`): each diagnostic with file:line:col,
// severity, message, its elaboration lines and (rule), grouped by file; the
// `N errors, N warnings, N informations` line word for word. The file
// headings go (each diagnostic names its file). `--outputjson` passes through.
import { hasArg } from "./common.js";
import { lineDiagnostics } from "./lines.js";

export const pyright = lineDiagnostics({
  id: "diagnostics.pyright",
  patterns: [/^ {2}(?<file>\S.*?):(?<line>\d+):(?<col>\d+) - (?<severity>error|warning|information): (?<message>.*)$/],
  // Its elaboration is indented by two spaces and two no-break spaces.
  continuation: /^ {2}[\u00a0 ]{2}(\S.*)$/,
  trailingCode: / \((report\w+)\)$/,
  drop: /^\/\S.*$|^No configuration file found|^Searching for source files|^Found \d+ source files?$|^pyproject\.toml file found|^Loading configuration/,
  summary: /^\d+ errors?, \d+ warnings?, \d+ informations?|^0 errors, /,
  passThrough: (input) => hasArg(input.argv, input.toolIndex + 1, ["--outputjson", "--version", "--help", "-h", "--verifytypes", "--createstub", "--watch", "-w"]),
  linter: true,
});
