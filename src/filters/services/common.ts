// What the service filters share: reading the words after the subcommand,
// telling when the user chose the output's shape (then it passes through), and
// the lines of stderr, kept whole.
import { ErrorLines, toolArgs } from "../kit.js";
import { linesText, type Filter, type FilterContext, type FilterInput } from "../types.js";

/** The words after the subcommand (or after the tool when it has none). */
export function argsAfterSub(input: FilterInput): readonly string[] {
  return input.argv.slice(Math.max(input.subIndex, input.toolIndex) + 1);
}

/** Whether an option is present, alone or as `--opt=value` / `-ovalue` (single-dash short ones). */
export function hasOption(args: readonly string[], names: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    for (const n of names) {
      if (a === n || (n.startsWith("--") && a.startsWith(`${n}=`)) || (/^-[a-zA-Z]$/.test(n) && a.startsWith(n) && !a.startsWith("--") && a.length > 2)) return true;
    }
  }
  return false;
}

/** The value of an option (`-o wide`, `-owide`, `--output=wide`), the last one given; null when absent. */
export function optionValue(args: readonly string[], names: readonly string[]): string | null {
  let value: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    for (const n of names) {
      if (a === n) value = args[i + 1] ?? "";
      else if (n.startsWith("--") && a.startsWith(`${n}=`)) value = a.slice(n.length + 1);
      else if (/^-[a-zA-Z]$/.test(n) && a.startsWith(n) && !a.startsWith("--") && a.length > 2) value = a.slice(2).replace(/^=/, "");
    }
  }
  return value;
}

/** Every word after the tool, for options a tool takes anywhere. */
export const allArgs = (input: FilterInput): readonly string[] => toolArgs(input);

/**
 * A filter that reads stdout whole before it compacts it. `plan` says how, or
 * null for output the user shaped (it passes as it is); the compact form is
 * printed when it is shorter than stdout, with stderr kept whole.
 */
export function wholeStdout(id: string, plan: (input: FilterInput, ctx: FilterContext) => ((lines: string[]) => string[] | null) | null): Filter {
  return {
    id,
    start(input, ctx) {
      const compact = plan(input, ctx);
      const lines: string[] = [];
      const errors = new ErrorLines();
      let chars = 0;
      return {
        line(stream, text) {
          if (stream === "err") return errors.add(text);
          if (!compact) return;
          chars += text.length + 1;
          lines.push(text);
        },
        end() {
          const out = compact?.(lines) ?? null;
          if (!out) return null;
          const stdout = linesText(out);
          return stdout.length < chars ? { stdout, stderr: errors.text(ctx.recall) } : null;
        },
      };
    },
  };
}
