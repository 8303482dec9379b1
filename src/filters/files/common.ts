// What the listing, search and content filters share: reading a tool's options,
// the size arithmetic that keeps a compact form shorter than the raw one, and
// the order that puts a project's own files before its dependencies.
import { omitted, type FilterInput, type RecallRef } from "../types.js";

// Kept here too: the listing filters and those written against this module take them from here.
export { ErrorLines, toolArgs } from "../kit.js";

/** The argv with presentation flags put right after the tool word (before any `--` or operand). */
export function withFlags(input: FilterInput, flags: readonly string[]): readonly string[] {
  if (!flags.length) return input.argv;
  const i = input.toolIndex + 1;
  return [...input.argv.slice(0, i), ...flags, ...input.argv.slice(i)];
}

export interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  shortWithValue: string;
  /** Long options that take a value (`--max-count 5`, `--max-count=5`), without the dashes. */
  longWithValue: readonly string[];
}

export interface ParsedArgs {
  /** Every short option letter seen, in clusters too. */
  short: Set<string>;
  /** Every long option seen (without dashes), with its value or true. */
  long: Map<string, string | true>;
  /** The values of short options that take one, by letter, in order. */
  values: Map<string, string[]>;
  operands: string[];
}

/** getopt_long-style reading: options anywhere before `--`, clusters, attached or separate values. */
export function parseArgs(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const parsed: ParsedArgs = { short: new Set(), long: new Map(), values: new Map(), operands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      parsed.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (eq >= 0) parsed.long.set(name, a.slice(eq + 1));
      else if (spec.longWithValue.includes(name) && i + 1 < args.length) parsed.long.set(name, args[++i]!);
      else parsed.long.set(name, true);
      continue;
    }
    if (a.length > 1 && a.startsWith("-")) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        parsed.short.add(c);
        if (spec.shortWithValue.includes(c)) {
          const value = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? "");
          parsed.values.set(c, [...(parsed.values.get(c) ?? []), value]);
          break;
        }
      }
      continue;
    }
    parsed.operands.push(a);
  }
  return parsed;
}

/** Whether any of the short letters or long names was given. */
export function given(p: ParsedArgs, short: string, long: readonly string[] = []): boolean {
  for (const c of short) if (p.short.has(c)) return true;
  return long.some((l) => p.long.has(l));
}

/**
 * A size as `ls -h` prints it (powers of 1024, one decimal below 10), rounded
 * to the nearest value: 1234 → 1.2K, 5678 → 5.5K (GNU ls rounds up: 1.3K, 5.6K).
 */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  const units = "KMGTPEZYRQ";
  let v = bytes / 1024;
  let u = 0;
  for (;;) {
    const shown = v < 9.95 ? Math.round(v * 10) / 10 : Math.round(v);
    if (shown < 1024 || u === units.length - 1) return (shown < 10 ? shown.toFixed(1) : String(shown)) + units[u];
    v /= 1024;
    u++;
  }
}

/** A line as shown, and whether it was shortened. */
export interface Cut {
  text: string;
  cut: boolean;
}

/**
 * A line longer than `max` characters shortened around `at` (where the match
 * is, when known), each cut side marked with the exact number of characters it hides.
 */
export function cutLine(line: string, max: number, recall: RecallRef, at = 0, atLength = 0): Cut {
  if (line.length <= max) return { text: line, cut: false };
  const keep = Math.max(1, max - 40);
  let start = 0;
  if (at + atLength > keep) start = Math.max(0, Math.min(line.length - keep, at - Math.floor((keep - atLength) / 3)));
  const end = Math.min(line.length, start + keep);
  const before = start > 0 ? `… +${start} chars … ` : "";
  const after = end < line.length ? ` ${omitted(line.length - end, "chars", recall)}` : "";
  return { text: before + line.slice(start, end) + after, cut: true };
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Component by component, so a directory's entries follow it. */
function compareParts(x: readonly string[], y: readonly string[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = compareText(x[i]!, y[i]!);
    if (c) return c;
  }
  return x.length - y.length;
}

/** Folders of dependencies, build output, caches and version control: rarely what a listing or a search is for. */
const BACKGROUND_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "vendor",
  "dist",
  "build",
  "out",
  "target",
  ".next",
  ".nuxt",
  ".turbo",
  ".cache",
  "coverage",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".venv",
  "venv",
  ".tox",
  ".gradle",
]);

/** Whether a path lies in (or is) one of the background folders. */
export function inBackground(path: string): boolean {
  return path.split("/").some((part) => BACKGROUND_DIRS.has(part));
}

/** The outermost background folder a file lies in (`packages/a/node_modules/`), or null. */
export function backgroundRoot(path: string): string | null {
  const parts = path.split("/");
  const at = parts.slice(0, -1).findIndex((part) => BACKGROUND_DIRS.has(part));
  return at < 0 ? null : parts.slice(0, at + 1).join("/") + "/";
}

/**
 * In path order with the background folders last: a budget of shown lines goes
 * to the project's own files first (what it leaves out is still counted).
 * Each key is split once, not at every comparison.
 */
export function sortForeground<T>(items: readonly T[], key: (item: T) => string): T[] {
  return items
    .map((item) => {
      const parts = key(item).split("/");
      return { item, parts, background: parts.some((part) => BACKGROUND_DIRS.has(part)) };
    })
    .sort((a, b) => Number(a.background) - Number(b.background) || compareParts(a.parts, b.parts))
    .map((d) => d.item);
}
