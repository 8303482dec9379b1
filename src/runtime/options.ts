// rtk's own options, before the tool word (`rtk --raw git log`): the one list
// the dispatcher takes them from and the permission matcher skips them by, so
// that both agree on which command rtk runs.
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
