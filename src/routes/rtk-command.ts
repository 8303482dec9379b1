// rtk's own command line: its options before the tool word (`rtk --raw git
// log`) and its own commands. The dispatcher takes them from here and the
// permission matcher reads commands by them, so that both agree on which
// command rtk runs.
export interface RtkOption {
  names: readonly string[];
  help: string;
}

export const RTK_OPTION_LIST: readonly RtkOption[] = [
  { names: ["--raw"], help: "print the tool's raw output, unfiltered (as RTK_RAW=1)" },
  { names: ["--verbose", "-v"], help: "accepted for compatibility; changes nothing yet" },
  { names: ["--no-track"], help: "do not record this run, as RTK_NO_TRACK=1" },
];

export const RTK_OPTIONS: ReadonlySet<string> = new Set(RTK_OPTION_LIST.flatMap((o) => o.names));

/** rtk's own commands: every other first word is a tool to run. */
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
  "discover",
  "help",
  "--help",
  "-h",
  "--version",
  "-V",
]);
