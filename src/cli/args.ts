// The options of rtk's commands: mri's reading, with the words mri would take
// silently checked first, so that a mistyped option is a usage error naming it.
import mri from "mri";
import { unknownWord, usageError } from "./help.js";

export interface OptionSpec {
  boolean?: readonly string[];
  string?: readonly string[];
}

export type Parsed = { _: string[]; [option: string]: unknown };

/** The parsed options, or the exit code of a usage error (already reported). */
export function parseOptions(command: string, args: readonly string[], spec: OptionSpec): Parsed | number {
  const bool = spec.boolean ?? [];
  const str = spec.string ?? [];
  const valid = [...bool, ...str].map((o) => `--${o}`);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    if (!a.startsWith("-") || a === "-") continue;
    const name = a.replace(/=.*$/s, "");
    if (!valid.includes(name)) return usageError(command, unknownWord("option", name, [...valid, "--help"]));
    if (str.includes(name.slice(2)) && !a.includes("=")) {
      if (i + 1 >= args.length) return usageError(command, `${name} needs a value`);
      i++;
    }
  }
  return mri([...args], { boolean: [...bool], string: [...str] }) as Parsed;
}
