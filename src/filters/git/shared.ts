// Helpers the git filters share: the subcommand's own arguments, git's progress chatter, its default date format, and a holder that caps what a
// filter keeps in memory and renders commit hashes at one abbreviation length.
import type { FilterInput } from "../types.js";

/** The subcommand word and the arguments after it. */
export function subcommandArgs(input: FilterInput): { sub: string; args: readonly string[] } {
  return { sub: input.argv[input.subIndex] ?? "", args: input.argv.slice(input.subIndex + 1) };
}

/** The arguments before a `--` (after it everything is a path). */
export function optionArgs(args: readonly string[]): readonly string[] {
  const dd = args.indexOf("--");
  return dd < 0 ? args : args.slice(0, dd);
}

/**
 * Progress and transfer statistics, local or relayed from the remote; what a
 * terminal shows while objects move and nothing of it is a result.
 */
const PROGRESS =
  /^(?:remote: *)?(?:Enumerating objects|Counting objects|Compressing objects|Writing objects|Receiving objects|Resolving deltas|Unpacking objects|Finding sources|Updating files|Checking out files|Filtering content|Checking connectivity|Updating index flags|Delta compression using up to|Total \d+ \(delta \d+\)|Rebasing \(\d+\/\d+\)|POST git-\w+-pack)/;

export function isProgress(line: string): boolean {
  return PROGRESS.test(line) || /^remote:\s*$/.test(line);
}

const MONTHS: Record<string, string> = {
  Jan: "01",
  Feb: "02",
  Mar: "03",
  Apr: "04",
  May: "05",
  Jun: "06",
  Jul: "07",
  Aug: "08",
  Sep: "09",
  Oct: "10",
  Nov: "11",
  Dec: "12",
};

/**
 * Git's default date (`Mon Jan 15 10:00:00 2024 +0100`) as the calendar day in
 * the author's own time zone (`2024-01-15`); any other form (the user chose
 * `--date=…`) is kept as it is.
 */
export function compactDate(date: string): string {
  const m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) \d{2}:\d{2}:\d{2} (\d{4}) [+-]\d{4}$/.exec(date.trim());
  if (!m || !MONTHS[m[1]!]) return date.trim();
  return `${m[3]}-${MONTHS[m[1]!]}-${m[2]!.padStart(2, "0")}`;
}

/** `Ann Smith <ann@example.com>` → `Ann Smith` (the address alone when there is no name). */
export function authorName(ident: string): string {
  const m = /^(.*?)\s*<([^>]*)>\s*$/.exec(ident.trim());
  if (!m) return ident.trim();
  return m[1] ? m[1] : `<${m[2]}>`;
}

/** At most this much compact text is held; past it the rest of the output is only counted. */
export const HELD_BYTES = 1024 * 1024;

/** A commit line whose hash is written at the end, at the length that keeps every shown hash distinct. */
interface CommitItem {
  hash: string;
  rest: string;
}

type Item = string | CommitItem;

export class Held {
  private items: Item[] = [];
  private bytes = 0;
  private abbrev = 7;

  constructor(private readonly budget = HELD_BYTES) {}

  get full(): boolean {
    return this.bytes > this.budget;
  }

  push(line: string): void {
    this.items.push(line);
    this.bytes += line.length + 1;
  }

  pushCommit(hash: string, rest: string): void {
    this.items.push({ hash, rest });
    this.bytes += 12 + rest.length + 1;
  }

  /** Git's own abbreviation length, as seen in a `Merge:` line: never shorter than that. */
  seeAbbrev(len: number): void {
    if (len > this.abbrev) this.abbrev = len;
  }

  get length(): number {
    return this.items.length;
  }

  /** Whether the i-th line is a commit's own line. */
  isCommit(i: number): boolean {
    return typeof this.items[i] !== "string";
  }

  lines(): string[] {
    const hashes = this.items.filter((i): i is CommitItem => typeof i !== "string").map((i) => i.hash);
    const len = distinctPrefixLength(hashes, this.abbrev);
    return this.items.map((i) => (typeof i === "string" ? i : i.hash.slice(0, len) + i.rest));
  }
}

/** The shortest prefix length, at least `min`, that tells every distinct hash of the list apart. */
export function distinctPrefixLength(hashes: readonly string[], min = 1): number {
  const distinct = [...new Set(hashes)];
  const longest = distinct.reduce((n, h) => Math.max(n, h.length), 0);
  const unique = (len: number) => {
    const seen = new Set<string>();
    for (const h of distinct) {
      const prefix = h.slice(0, len);
      if (seen.has(prefix)) return false;
      seen.add(prefix);
    }
    return true;
  };
  for (let len = min; len < longest; len++) if (unique(len)) return len;
  return Math.max(min, longest);
}

/** `commit <hash>` at the start of a line, as `/^commit [0-9a-f]{7,64}\b/` says, without a regular expression (it runs on every line of a huge log). */
export function isCommitLine(text: string): boolean {
  if (!text.startsWith("commit ")) return false;
  let i = 7;
  while (i < text.length && i < 7 + 64 && isHex(text.charCodeAt(i))) i++;
  if (i - 7 < 7) return false;
  return i === text.length || !isWordChar(text.charCodeAt(i));
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** `1 file changed, +3 -1` (the counts git prints in its own summary, shortened). */
export function changeSummary(files: number, insertions: number | null, deletions: number | null): string {
  const head = `${files} file${files === 1 ? "" : "s"} changed`;
  return insertions === null || deletions === null ? head : `${head}, +${insertions} -${deletions}`;
}
