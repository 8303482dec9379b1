// rtk's own commands: every other first word is a tool to run.
export const META_COMMANDS: ReadonlySet<string> = new Set([
  "rewrite",
  "explain",
  "hook",
  "init",
  "doctor",
  "recall",
  "gain",
  "proxy",
  "config",
  "trust",
  "verify",
  "help",
  "--help",
  "-h",
  "--version",
  "-V",
]);
