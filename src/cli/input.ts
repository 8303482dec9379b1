import { readFileSync } from "node:fs";

/** The command text of a meta-command: its argument, or stdin when the argument is `-`. */
export function readCommandArg(arg: string): string {
  if (arg !== "-") return arg;
  return readFileSync(0, "utf8");
}
