// `grep` and `rg`: every match with its file and line number, grouped by file.
//
//   src/a.ts
//     12: const x = foo();
//     13- context line
//
// The file is printed once, then each line as `  <n>:<text>` (a match) or
// `  <n>-<text>` (context): after the two spaces of the group, what grep
// printed after the file name, byte for byte (indentation, tabs, trailing
// spaces: agents paste these lines into edits); group separators (`--`) go,
// since the line numbers show the gaps. Files are sorted by path
// (rg's order changes from run to run), the folders of dependencies, build
// output and caches last. When only one file is searched (no names in the
// output) the lines stand alone as grep printed them. The command runs as given:
// without `-n` the lines have no numbers (`  <text>`, every one a match), and
// context without numbers passes through. A line longer than MAX_LINE is cut
// around the match when the pattern is a plain string (else from its start), each cut
// marked with the exact number of characters hidden. Every line is shown while
// the whole fits the list budget (`[limits] list_tokens`); past it, each file
// shows as many lines as fit with one cap for all (at least its first match
// with its context), and when even that does not fit, the first files in path
// order do and the files past the budget are named with their match counts in
// one marker, the files of a directory after it (`src/hooks/ a.ts (1) b.ts
// (2)`), those of a dependency or build folder counted by that folder.
// Everything left out is counted exactly, with a recall handle.
// Modes that are already compact or structured (`-l`, `-L`, `-c`, `-o`, `-q`,
// `--json`, `--files`, `--vimgrep`, `--heading`, `-b`, `-Z`, …) pass through.
// Lines not recognised (rg's binary-file notices) are kept after the groups;
// stderr (grep's binary-file notices and errors) is kept whole.
import { largestFit, limitsOf } from "../budget.js";
import { BoundedLines, ErrorLines, counted, filesOf, fitCount, noun, remembered, runsByDir, withoutDotSlash } from "../kit.js";
import { omitted, type CompactOutput, type FileProbe, type Filter, type FilterContext, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { backgroundRoot, cutLine, given, parseArgs, sortForeground, toolArgs, type OptionSpec, type ParsedArgs } from "./common.js";

/** A matched line longer than this (minified code, data) is cut around the match. */
const MAX_LINE = 1000;
/** Characters of lines held; past it, lines are counted only (memory stays bounded). */
const HELD_CHARS = 4 * 1024 * 1024;
/** Files held with their lines; past it, files are counted only. */
const MAX_FILES_HELD = 5000;
/** What a `… +N more matches [rtk recall id]` line costs, about. */
const MARKER_COST = 48;
/** Characters kept for the marker naming the files past the budget (at most a sixth of the budget). */
const REST_RESERVE = 1200;
/** Files named, with their match counts, in the marker of the files past the budget. */
const MAX_FILES_NAMED = 100;

const GREP_SPEC: OptionSpec = {
  shortWithValue: "efmABCdD",
  longWithValue: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "devices",
    "directories",
    "include",
    "exclude",
    "exclude-from",
    "exclude-dir",
    "label",
    "binary-files",
    "group-separator",
  ],
};

const RG_SPEC: OptionSpec = {
  shortWithValue: "efgtTmABCrjMdE",
  longWithValue: [
    "regexp",
    "file",
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "type-clear",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "replace",
    "threads",
    "max-columns",
    "max-depth",
    "maxdepth",
    "encoding",
    "engine",
    "color",
    "colors",
    "context-separator",
    "field-context-separator",
    "field-match-separator",
    "path-separator",
    "sort",
    "sortr",
    "dfa-size-limit",
    "regex-size-limit",
    "ignore-file",
    "pre",
    "pre-glob",
    "max-filesize",
    "hostname-bin",
    "hyperlink-format",
  ],
};

interface GrepMode {
  passThrough: boolean;
  lineNumbers: boolean;
  /** Whether each line starts with a file name; null when only the output can tell. */
  names: boolean | null;
  needle: { text: string; fold: boolean } | null;
}

function modeOf(input: FilterInput, files: FileProbe): GrepMode {
  const rg = input.route.tool === "rg";
  const p = parseArgs(toolArgs(input), rg ? RG_SPEC : GREP_SPEC);
  const passThrough = rg
    ? given(p, "lcqob0pVh", [
        "files",
        "files-with-matches",
        "files-without-match",
        "count",
        "count-matches",
        "json",
        "only-matching",
        "quiet",
        "vimgrep",
        "column",
        "null",
        "null-data",
        "byte-offset",
        "heading",
        "pretty",
        "type-list",
        "help",
        "version",
        "debug",
        "trace",
      ])
    : given(p, "lLcqoZzbTV", ["files-with-matches", "files-without-match", "count", "quiet", "silent", "only-matching", "null", "null-data", "byte-offset", "initial-tab", "help", "version"]);
  const explicitPatterns = given(p, "ef", ["regexp", "file"]);
  const operands = explicitPatterns ? p.operands : p.operands.slice(1);
  const lineNumbers = given(p, "n", ["line-number"]) && !(rg && given(p, "N", ["no-line-number"]));
  const context = given(p, "ABC", ["after-context", "before-context", "context"]);
  return {
    passThrough: passThrough || (!lineNumbers && context),
    lineNumbers,
    names: namesShown(rg, p, operands, files),
    needle: needleOf(rg, p, explicitPatterns),
  };
}

function namesShown(rg: boolean, p: ParsedArgs, operands: readonly string[], files: FileProbe): boolean | null {
  if (given(p, "H", ["with-filename"])) return true;
  if (rg ? given(p, "I", ["no-filename"]) : given(p, "h", ["no-filename"])) return false;
  if (operands.length >= 2) return true;
  if (rg) return operands.length === 1 ? files.isDirectory(operands[0]!) : null;
  const recursive = given(p, "rR", ["recursive", "dereference-recursive"]) || p.values.get("d")?.includes("recurse") || p.long.get("directories") === "recurse";
  if (!recursive) return false;
  return operands.length === 0 || files.isDirectory(operands[0]!);
}

/** The pattern, when it is one plain string that can be found in a matched line. */
function needleOf(rg: boolean, p: ParsedArgs, explicit: boolean): GrepMode["needle"] {
  if (given(p, "f", ["file"])) return null;
  const patterns = explicit ? [...(p.values.get("e") ?? []), ...(typeof p.long.get("regexp") === "string" ? [p.long.get("regexp") as string] : [])] : p.operands.slice(0, 1);
  const pat = patterns.length === 1 ? patterns[0]! : null;
  if (!pat) return null;
  if (!given(p, "F", ["fixed-strings"]) && /[.[\]*^$\\+?(){}|]/.test(pat)) return null;
  const fold = given(p, rg ? "i" : "iy", ["ignore-case"]) || (rg && given(p, "S", ["smart-case"]) && pat === pat.toLowerCase());
  return { text: fold ? pat.toLowerCase() : pat, fold };
}

interface FileGroup {
  lines: string[];
  hiddenMatches: number;
  hiddenContext: number;
}

interface Hit {
  file: string;
  n: string;
  sep: string;
  body: string;
}

interface Counts {
  matches: number;
  context: number;
}

/** A line of the output of one file searched alone (no names in it). */
interface SingleLine {
  text: string;
  match: boolean;
}

export const grep: Filter = {
  id: "grep",
  // A CR is part of a name or of a matched line.
  lineForm: () => "text",
  start: (input, ctx) => new GrepRun(input, ctx),
};

/**
 * One run: lines are read into the groups of their files (or into the lines of
 * the one file searched), held within HELD_CHARS and MAX_FILES_HELD; past
 * those bounds they are counted only. The budget is applied at the end.
 */
class GrepRun implements FilterRun {
  private readonly files: FileProbe;
  private readonly mode: GrepMode;
  /** Whether each line starts with a file name; null until the output tells. */
  private names: boolean | null;
  /** Without line numbers every line is a match (context without them passes through). */
  private readonly isMatch: (line: string) => boolean;
  private readonly err = new ErrorLines();
  private readonly groups = new Map<string, FileGroup>();
  /** Files past MAX_FILES_HELD, and their lines: counted only. */
  private readonly unheld = { files: 0, matches: 0, context: 0 };
  private lastUnheldFile: string | null = null;
  private readonly single: SingleLine[] = [];
  private readonly singleUnheld: Counts = { matches: 0, context: 0 };
  /** Lines not recognised (rg's binary-file notices): kept after the groups, the first 200. */
  private readonly others = new BoundedLines<string>(Infinity, undefined, "started", 200);
  /** Characters of lines held, by the groups and the single file together. */
  private heldChars = 0;
  /** The file of the previous line: a name that holds separators is read as it first. */
  private current: string | null = null;

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    this.files = remembered(filesOf(ctx));
    this.mode = modeOf(input, this.files);
    this.names = this.mode.names;
    this.isMatch = this.mode.lineNumbers ? isMatchLine : () => true;
  }

  line(stream: "out" | "err", text: string): void {
    if (stream === "err") return this.err.add(text);
    if (this.mode.passThrough || text === "--") return;
    this.names ??= this.namesFrom(text);
    if (!this.names) return this.singleLine(text);
    const h = this.mode.lineNumbers ? parseNamed(text, this.current, this.files.isFile) : parseNamedPlain(text, this.current, this.files.isFile);
    if (!h) return void this.others.add(text);
    this.current = h.file;
    this.record(h);
  }

  end(): CompactOutput | null {
    if (this.mode.passThrough || (!this.groups.size && !this.single.length && !this.others.items.length && !this.unheld.files)) return null;
    const { recall } = this.ctx;
    const budget = limitsOf(this.ctx).list;
    const out = [...this.groupLines(budget), ...singleLines(this.single, this.singleUnheld, budget, recall), ...this.others.items];
    if (this.others.dropped) out.push(omitted(this.others.dropped, "lines", recall));
    return { stdout: out.join("\n") + "\n", stderr: this.err.text(recall) };
  }

  /** Whether the output names files, from its first line. */
  private namesFrom(text: string): boolean {
    const isFile = this.files.isFile;
    // `12:…` is a line of one file, unless an existing file's name starts that way (`2024-01-02.log:3:…`).
    if (this.mode.lineNumbers) return !/^\d+[:-]/.test(text) || isFile(parseNamed(text, null, isFile)?.file ?? "");
    // Only the output tells: a line that starts with an existing file and `:` names it.
    const colon = text.indexOf(":");
    return colon > 0 && isFile(text.slice(0, colon));
  }

  /** A line of the one file searched: `12:text`, `12-text`, or (without numbers) the matched line. */
  private singleLine(text: string): void {
    if (!this.mode.lineNumbers) return this.holdSingle("", ":", text);
    const m = /^(\d+)([:-])(.*)$/.exec(text);
    if (!m) return void this.others.add(text);
    this.holdSingle(m[1]!, m[2]!, m[3]!);
  }

  private holdSingle(n: string, sep: string, body: string): void {
    const match = sep === ":";
    if (this.heldChars > HELD_CHARS) return void (match ? this.singleUnheld.matches++ : this.singleUnheld.context++);
    const line = this.render({ file: "", n, sep, body });
    this.heldChars += line.length + 1;
    this.single.push({ text: line, match });
  }

  private record(h: Hit): void {
    const context = h.sep === "-";
    let g = this.groups.get(h.file);
    if (!g) {
      // Past MAX_FILES_HELD files, the rest are counted only (memory stays bounded).
      if (this.groups.size >= MAX_FILES_HELD) {
        if (h.file !== this.lastUnheldFile) this.unheld.files++;
        this.lastUnheldFile = h.file;
        if (context) this.unheld.context++;
        else this.unheld.matches++;
        return;
      }
      g = { lines: [], hiddenMatches: 0, hiddenContext: 0 };
      this.groups.set(h.file, g);
    }
    if (this.heldChars > HELD_CHARS) {
      if (context) g.hiddenContext++;
      else g.hiddenMatches++;
      return;
    }
    const line = this.render(h);
    this.heldChars += line.length + 3;
    g.lines.push(line);
  }

  /** A line as shown: its number and separator (when numbered), its text cut around the match when too long. */
  private render(h: Hit): string {
    const needle = this.mode.needle;
    let at = 0;
    if (needle && h.sep === ":") at = Math.max(0, (needle.fold ? h.body.toLowerCase() : h.body).indexOf(needle.text));
    const cut = cutLine(h.body, MAX_LINE, this.ctx.recall, at, needle?.text.length ?? 0);
    return this.mode.lineNumbers ? `${h.n}${h.sep}${cut.text}` : cut.text;
  }

  /**
   * The groups within the budget: every file whole when it fits; else as many
   * lines of each as fit (the same cap for all); else the first files, and
   * one marker naming the files past the budget.
   */
  private groupLines(budget: number): string[] {
    const { recall } = this.ctx;
    const restReserve = Math.min(REST_RESERVE, Math.floor(budget / 6));
    const sized = sortForeground([...this.groups.keys()], display).map((f) => sizedGroup(f, this.groups.get(f)!, this.isMatch));
    const { perFile, shownFiles } = layout(sized, budget, restReserve);
    const out: string[] = [];
    for (const s of sized.slice(0, shownFiles)) out.push(...fileBlock(s, perFile, this.isMatch, recall));
    const past = pastBudget(sized.slice(shownFiles), this.isMatch);
    const files = past.files + this.unheld.files;
    if (files) {
      const matches = this.unheld.matches + past.matches;
      const context = this.unheld.context + past.context;
      out.push(`${omitted(matches, `${what(matches, context)} in ${files} more ${noun(files, "file")}`, recall)}: ${restList(past.named, files, restReserve)}`);
    }
    return out;
  }
}

/** A file's group with what its lines cost as shown: `pre[k]` the first k, `first` the lines up to its first match block. */
interface SizedGroup {
  file: string;
  group: FileGroup;
  pre: number[];
  first: number;
}

function sizedGroup(file: string, group: FileGroup, isMatch: (l: string) => boolean): SizedGroup {
  const pre = [0];
  for (const l of group.lines) pre.push(pre[pre.length - 1]! + l.length + 3);
  return { file, group, pre, first: firstBlockEnd(group.lines, isMatch) };
}

/** What a file costs with at most k of its lines shown (at least its first match block). */
function groupCost(s: SizedGroup, k: number): number {
  const shown = Math.min(s.group.lines.length, Math.max(k, s.first));
  const cut = shown < s.group.lines.length || s.group.hiddenMatches + s.group.hiddenContext > 0;
  return display(s.file).length + 1 + s.pre[shown]! + (cut ? MARKER_COST : 0);
}

/** Lines shown per file, and how many files (from the first) are shown at all. */
function layout(sized: readonly SizedGroup[], budget: number, restReserve: number): { perFile: number; shownFiles: number } {
  const costAll = (k: number) => sized.reduce((n, s) => n + groupCost(s, k), 0);
  const longest = sized.reduce((n, s) => Math.max(n, s.group.lines.length), 0);
  if (costAll(longest) <= budget) return { perFile: longest, shownFiles: sized.length };
  const perFile = largestFit(longest, budget, costAll);
  if (perFile > 0) return { perFile, shownFiles: sized.length };
  return { perFile, shownFiles: fitCount(sized, budget - restReserve, (s) => groupCost(s, 0), { atLeast: 1 }) };
}

/** A shown file: its name, its first lines, and the count of the rest. */
function fileBlock(s: SizedGroup, perFile: number, isMatch: (l: string) => boolean, recall: RecallRef): string[] {
  const g = s.group;
  const shown = g.lines.slice(0, Math.max(perFile, s.first));
  const cutMatches = g.lines.slice(shown.length).filter(isMatch).length;
  const matches = g.hiddenMatches + cutMatches;
  const context = g.hiddenContext + g.lines.length - shown.length - cutMatches;
  const out = [display(s.file), ...shown.map((l) => `  ${l}`)];
  if (matches || context) out.push(`  ${omitted(matches, what(matches, context), recall)}`);
  return out;
}

/** A name in the marker of the files past the budget: a file with its matches, or a dependency folder's count. */
interface NamedRest {
  text: string;
  files: number;
  path?: string;
  matches?: number;
}

/**
 * The files past the budget, counted: each file with its match count; the
 * files of a dependency or build folder counted by that folder (after the others).
 */
function pastBudget(sized: readonly SizedGroup[], isMatch: (l: string) => boolean): { files: number; matches: number; context: number; named: NamedRest[] } {
  const past = { files: 0, matches: 0, context: 0, named: [] as NamedRest[] };
  const background = new Map<string, { files: number; matches: number }>();
  for (const { file, group: g } of sized) {
    const matches = g.lines.filter(isMatch).length + g.hiddenMatches;
    past.matches += matches;
    past.context += g.lines.length + g.hiddenMatches + g.hiddenContext - matches;
    past.files++;
    const root = backgroundRoot(display(file));
    if (root === null) {
      past.named.push({ text: `${display(file)} (${matches})`, files: 1, path: display(file), matches });
      continue;
    }
    const b = background.get(root) ?? { files: 0, matches: 0 };
    b.files++;
    b.matches += matches;
    background.set(root, b);
  }
  for (const [root, b] of background) past.named.push({ text: `${root} (${counted(b.files, "file")}, ${counted(b.matches, "match", "matches")})`, files: b.files });
  return past;
}

/** The names that fit in the room kept for them (at most MAX_FILES_NAMED), then how many files are not named. */
function restList(named: readonly NamedRest[], files: number, restReserve: number): string {
  const listed = named.slice(
    0,
    fitCount(named, restReserve - 78, (e) => e.text.length + 2, { max: MAX_FILES_NAMED }),
  );
  const unnamed = files - listed.reduce((n, e) => n + e.files, 0);
  return namedList(listed) + (unnamed ? `${listed.length ? ", " : ""}${unnamed} more` : "");
}

/** One file's lines: all when they fit, else the first that do, the rest counted. */
function singleLines(single: readonly SingleLine[], unheld: Counts, budget: number, recall: RecallRef): string[] {
  const chars = single.reduce((n, s) => n + s.text.length + 1, 0);
  const over = chars > budget || unheld.matches + unheld.context > 0;
  const shown = over ? fitCount(single, budget - MARKER_COST, (s) => s.text.length + 1, { atLeast: 1 }) : single.length;
  const hidden = { ...unheld };
  for (const s of single.slice(shown)) {
    if (s.match) hidden.matches++;
    else hidden.context++;
  }
  const out = single.slice(0, shown).map((s) => s.text);
  if (hidden.matches || hidden.context) out.push(omitted(hidden.matches, what(hidden.matches, hidden.context), recall));
  return out;
}

/**
 * The files past the budget, in order: files of one directory share it
 * (`src/hooks/ useAuth.ts (1) useFetch.ts (2)`); a path with whitespace, a
 * top-level file and a folder's count are entries of their own. Entries are
 * apart by `, `.
 */
function namedList(entries: readonly NamedRest[]): string {
  const dirOf = (e: NamedRest) => {
    const slash = e.path?.lastIndexOf("/") ?? -1;
    return e.path !== undefined && slash > 0 && !/\s/.test(e.path) ? e.path.slice(0, slash + 1) : null;
  };
  const name = (e: NamedRest) => `${e.path!.slice(e.path!.lastIndexOf("/") + 1)} (${e.matches})`;
  return runsByDir(entries, dirOf)
    .map((run) => (run.dir === null ? run.items[0]!.text : `${run.dir} ${run.items.map(name).join(" ")}`))
    .join(", ");
}

/**
 * A file that gets any of the budget shows at least its first match, with the
 * context lines around it: the count of lines up to the end of that block.
 */
function firstBlockEnd(lines: readonly string[], isMatch: (l: string) => boolean): number {
  const first = lines.findIndex(isMatch);
  if (first < 0) return lines.length;
  let end = first + 1;
  while (end < lines.length && !isMatch(lines[end]!) && lineNumber(lines[end]!) === lineNumber(lines[end - 1]!) + 1) end++;
  return end;
}

function lineNumber(l: string): number {
  return Number(/^\d+/.exec(l)?.[0] ?? -1);
}

/** A rendered match line (`12: text`), as against a context line (`12- text`). */
function isMatchLine(l: string): boolean {
  return /^\d+:/.test(l);
}

function what(matches: number, context: number): string {
  if (!context) return matches === 1 ? "match" : "matches";
  return `${matches === 1 ? "match" : "matches"} (and ${context} context ${context === 1 ? "line" : "lines"})`;
}

const display = withoutDotSlash;

const SEPARATED = /^([:-])(\d+)\1/;

/**
 * `file:text`, without a line number: the file of the previous line is tried
 * first, then the first `:` after an existing file, then the first `:`.
 */
export function parseNamedPlain(line: string, current: string | null, isFile: (path: string) => boolean): Hit | null {
  if (current !== null && line.startsWith(current + ":")) return { file: current, sep: ":", n: "", body: line.slice(current.length + 1) };
  let first = -1;
  for (let at = line.indexOf(":"), tries = 0; at >= 0 && tries < 8; at = line.indexOf(":", at + 1), tries++) {
    if (at === 0) continue;
    if (first < 0) first = at;
    if (isFile(line.slice(0, at))) return { file: line.slice(0, at), sep: ":", n: "", body: line.slice(at + 1) };
  }
  return first < 0 ? null : { file: line.slice(0, first), sep: ":", n: "", body: line.slice(first + 1) };
}

/**
 * `file:12:text` (a match) or `file-12-text` (context). A name may itself hold
 * `:3:` or `-3-`: the file of the previous line is tried first, then the first
 * split whose name is an existing file, then the first split.
 */
export function parseNamed(line: string, current: string | null, isFile: (path: string) => boolean): Hit | null {
  if (current !== null && line.startsWith(current)) {
    const m = SEPARATED.exec(line.slice(current.length));
    if (m) return { file: current, sep: m[1]!, n: m[2]!, body: line.slice(current.length + m[0].length) };
  }
  const splits: RegExpExecArray[] = [];
  const re = /([:-])(\d+)\1/g;
  for (let m = re.exec(line); m && splits.length < 8; m = re.exec(line)) {
    if (m.index > 0) splits.push(m);
    re.lastIndex = m.index + 1;
  }
  if (!splits.length) return null;
  const pick = splits.length === 1 ? splits[0]! : (splits.find((s) => isFile(line.slice(0, s.index))) ?? splits[0]!);
  return { file: line.slice(0, pick.index), sep: pick[1]!, n: pick[2]!, body: line.slice(pick.index + pick[0].length) };
}
