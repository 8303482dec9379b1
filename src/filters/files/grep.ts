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
import { statSync } from "node:fs";
import { largestFit, limitsOf } from "../budget.js";
import { omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { ErrorLines, backgroundRoot, cutLine, given, parseArgs, sortForeground, toolArgs, type OptionSpec, type ParsedArgs } from "./common.js";

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
  longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "include", "exclude", "exclude-from", "exclude-dir", "label", "binary-files", "group-separator"],
};

const RG_SPEC: OptionSpec = {
  shortWithValue: "efgtTmABCrjMdE",
  longWithValue: [
    "regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-count", "after-context", "before-context", "context",
    "replace", "threads", "max-columns", "max-depth", "maxdepth", "encoding", "engine", "color", "colors", "context-separator", "field-context-separator",
    "field-match-separator", "path-separator", "sort", "sortr", "dfa-size-limit", "regex-size-limit", "ignore-file", "pre", "pre-glob", "max-filesize",
    "hostname-bin", "hyperlink-format",
  ],
};

interface GrepMode {
  passThrough: boolean;
  lineNumbers: boolean;
  /** Whether each line starts with a file name; null when only the output can tell. */
  names: boolean | null;
  needle: { text: string; fold: boolean } | null;
}

function modeOf(input: FilterInput): GrepMode {
  const rg = input.route.tool === "rg";
  const p = parseArgs(toolArgs(input), rg ? RG_SPEC : GREP_SPEC);
  const passThrough = rg
    ? given(p, "lcqob0pVh", ["files", "files-with-matches", "files-without-match", "count", "count-matches", "json", "only-matching", "quiet", "vimgrep", "column", "null", "null-data", "byte-offset", "heading", "pretty", "type-list", "help", "version", "debug", "trace"])
    : given(p, "lLcqoZzbTV", ["files-with-matches", "files-without-match", "count", "quiet", "silent", "only-matching", "null", "null-data", "byte-offset", "initial-tab", "help", "version"]);
  const explicitPatterns = given(p, "ef", ["regexp", "file"]);
  const files = explicitPatterns ? p.operands : p.operands.slice(1);
  const lineNumbers = given(p, "n", ["line-number"]) && !(rg && given(p, "N", ["no-line-number"]));
  const context = given(p, "ABC", ["after-context", "before-context", "context"]);
  return {
    passThrough: passThrough || (!lineNumbers && context),
    lineNumbers,
    names: namesShown(rg, p, files),
    needle: needleOf(rg, p, explicitPatterns),
  };
}

function namesShown(rg: boolean, p: ParsedArgs, files: readonly string[]): boolean | null {
  if (given(p, "H", ["with-filename"])) return true;
  if (rg ? given(p, "I", ["no-filename"]) : given(p, "h", ["no-filename"])) return false;
  if (files.length >= 2) return true;
  if (rg) return files.length === 1 ? isDirectory(files[0]!) : null;
  const recursive = given(p, "rR", ["recursive", "dereference-recursive"]) || p.values.get("d")?.includes("recurse") || p.long.get("directories") === "recurse";
  if (!recursive) return false;
  return files.length === 0 || isDirectory(files[0]!);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
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

export const grep: Filter = {
  id: "grep",
  // A CR is part of a name or of a matched line.
  lineForm: () => "text",
  start(input, ctx): FilterRun {
    const { recall } = ctx;
    const mode = modeOf(input);
    // Without line numbers every line is a match (context without them passes through).
    const isMatch = mode.lineNumbers ? isMatchLine : () => true;
    let names = mode.names;
    const err = new ErrorLines();
    const groups = new Map<string, FileGroup>();
    const single: { text: string; match: boolean }[] = [];
    const others: string[] = [];
    let hiddenOthers = 0;
    let heldChars = 0;
    const hidden = { matches: 0, context: 0, files: 0 };
    let lastHiddenFile: string | null = null;
    let current: string | null = null;
    const single_ = { matches: 0, context: 0 };
    const isFile = fileCheck();

    const render = (h: Hit) => {
      const body = h.body;
      let at = 0;
      if (mode.needle && h.sep === ":") at = Math.max(0, (mode.needle.fold ? body.toLowerCase() : body).indexOf(mode.needle.text));
      const cut = cutLine(body, MAX_LINE, recall, at, mode.needle?.text.length ?? 0);
      return mode.lineNumbers ? `${h.n}${h.sep}${cut.text}` : cut.text;
    };

    const record = (h: Hit) => {
      const context = h.sep === "-";
      let g = groups.get(h.file);
      if (!g) {
        // Past MAX_FILES_HELD files, the rest are counted only (memory stays bounded).
        if (groups.size >= MAX_FILES_HELD) {
          if (h.file !== lastHiddenFile) hidden.files++;
          lastHiddenFile = h.file;
          if (context) hidden.context++;
          else hidden.matches++;
          return;
        }
        g = { lines: [], hiddenMatches: 0, hiddenContext: 0 };
        groups.set(h.file, g);
      }
      if (heldChars > HELD_CHARS) {
        if (context) g.hiddenContext++;
        else g.hiddenMatches++;
        return;
      }
      const line = render(h);
      heldChars += line.length + 3;
      g.lines.push(line);
    };

    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (mode.passThrough || text === "--") return;
        // `12:…` is a line of one file, unless an existing file's name starts that way (`2024-01-02.log:3:…`).
        if (names === null && mode.lineNumbers) names = !/^\d+[:-]/.test(text) || isFile(parseNamed(text, null, isFile)?.file ?? "");
        if (names === null) {
          // Only the output tells: a line that starts with an existing file and `:` names it.
          const colon = text.indexOf(":");
          names = colon > 0 && isFile(text.slice(0, colon));
        }
        if (!names && !mode.lineNumbers) {
          if (heldChars > HELD_CHARS) {
            single_.matches++;
            return;
          }
          const line = render({ file: "", n: "", sep: ":", body: text });
          heldChars += line.length + 1;
          single.push({ text: line, match: true });
          return;
        }
        if (!names) {
          const m = /^(\d+)([:-])(.*)$/.exec(text);
          if (!m) return other(text);
          if (heldChars > HELD_CHARS) {
            if (m[2] === "-") single_.context++;
            else single_.matches++;
            return;
          }
          const line = render({ file: "", n: m[1]!, sep: m[2]!, body: m[3]! });
          heldChars += line.length + 1;
          single.push({ text: line, match: m[2] === ":" });
          return;
        }
        const h = mode.lineNumbers ? parseNamed(text, current, isFile) : parseNamedPlain(text, current, isFile);
        if (!h) return other(text);
        current = h.file;
        record(h);
      },
      end() {
        if (mode.passThrough || (!groups.size && !single.length && !others.length && !hidden.files)) return null;
        const out: string[] = [];
        const budget = limitsOf(ctx).list;
        const restReserve = Math.min(REST_RESERVE, Math.floor(budget / 6));
        const files = sortForeground([...groups.keys()], display);
        const sized = files.map((f) => {
          const g = groups.get(f)!;
          const pre = [0];
          for (const l of g.lines) pre.push(pre[pre.length - 1]! + l.length + 3);
          return { f, g, pre, first: firstBlockEnd(g.lines, isMatch) };
        });
        // What a file costs with at most k of its lines shown (at least its first match block).
        const cost = (i: number, k: number) => {
          const { f, g, pre, first } = sized[i]!;
          const shown = Math.min(g.lines.length, Math.max(k, first));
          const cut = shown < g.lines.length || g.hiddenMatches + g.hiddenContext > 0;
          return display(f).length + 1 + pre[shown]! + (cut ? MARKER_COST : 0);
        };
        const costAll = (k: number) => sized.reduce((n, _, i) => n + cost(i, k), 0);
        const longest = sized.reduce((n, s) => Math.max(n, s.g.lines.length), 0);
        // Every file whole when it fits; else as many lines of each as fit (the same cap for all); else the first files.
        let perFile = longest;
        let shownFiles = sized.length;
        if (costAll(longest) > budget) {
          perFile = largestFit(longest, budget, costAll);
          if (perFile === 0) {
            let left = budget - restReserve;
            shownFiles = 0;
            while (shownFiles < sized.length && (shownFiles === 0 || cost(shownFiles, 0) <= left)) left -= cost(shownFiles++, 0);
          }
        }
        const rest = { matches: hidden.matches, context: hidden.context, files: 0 };
        const named: { text: string; files: number; path?: string; matches?: number }[] = [];
        const background = new Map<string, { files: number; matches: number }>();
        sized.forEach(({ f, g, first }, i) => {
          if (i >= shownFiles) {
            // Past the budget: each file with its match count; the files of a dependency
            // or build folder counted by that folder.
            const matches = g.lines.filter(isMatch).length + g.hiddenMatches;
            rest.matches += matches;
            rest.context += g.lines.length + g.hiddenMatches + g.hiddenContext - matches;
            rest.files++;
            const root = backgroundRoot(display(f));
            if (root === null) named.push({ text: `${display(f)} (${matches})`, files: 1, path: display(f), matches });
            else {
              const b = background.get(root) ?? { files: 0, matches: 0 };
              b.files++;
              b.matches += matches;
              background.set(root, b);
            }
            return;
          }
          const shown = g.lines.slice(0, Math.max(perFile, first));
          const cutMatches = g.lines.slice(shown.length).filter(isMatch).length;
          const hiddenMatches = g.hiddenMatches + cutMatches;
          const hiddenContext = g.hiddenContext + g.lines.length - shown.length - cutMatches;
          out.push(display(f), ...shown.map((l) => `  ${l}`));
          if (hiddenMatches || hiddenContext) out.push(`  ${omitted(hiddenMatches, what(hiddenMatches, hiddenContext), recall)}`);
        });
        for (const [root, b] of background) named.push({ text: `${root} (${b.files} ${b.files === 1 ? "file" : "files"}, ${b.matches} ${b.matches === 1 ? "match" : "matches"})`, files: b.files });
        const restFiles = rest.files + hidden.files;
        if (restFiles) {
          const listed: typeof named = [];
          let chars = 0;
          for (const e of named) {
            if (listed.length >= MAX_FILES_NAMED || chars + e.text.length > restReserve - 80) break;
            listed.push(e);
            chars += e.text.length + 2;
          }
          const unnamed = restFiles - listed.reduce((n, e) => n + e.files, 0);
          const list = namedList(listed) + (unnamed ? `${listed.length ? ", " : ""}${unnamed} more` : "");
          out.push(`${omitted(rest.matches, `${what(rest.matches, rest.context)} in ${restFiles} more ${restFiles === 1 ? "file" : "files"}`, recall)}: ${list}`);
        }
        // One file's lines: all when they fit, else the first that do, the rest counted.
        const singleChars = single.reduce((n, s) => n + s.text.length + 1, 0);
        let shownSingle = single.length;
        if (singleChars > budget || single_.matches + single_.context > 0) {
          let left = budget - MARKER_COST;
          shownSingle = 0;
          while (shownSingle < single.length && (shownSingle === 0 || single[shownSingle]!.text.length + 1 <= left)) left -= single[shownSingle++]!.text.length + 1;
        }
        for (const s of single.slice(shownSingle)) {
          if (s.match) single_.matches++;
          else single_.context++;
        }
        out.push(...single.slice(0, shownSingle).map((s) => s.text));
        if (single_.matches || single_.context) out.push(omitted(single_.matches, what(single_.matches, single_.context), recall));
        out.push(...others);
        if (hiddenOthers) out.push(omitted(hiddenOthers, "lines", recall));
        return { stdout: out.join("\n") + "\n", stderr: err.text(recall) };
      },
    };

    function other(text: string): void {
      if (others.length < 200) others.push(text);
      else hiddenOthers++;
    }
  },
};

/**
 * The files past the budget, in order: files of one directory share it
 * (`src/hooks/ useAuth.ts (1) useFetch.ts (2)`); a path with whitespace, a
 * top-level file and a folder's count are entries of their own. Entries are
 * apart by `, `.
 */
function namedList(entries: readonly { text: string; path?: string; matches?: number }[]): string {
  const parts: string[] = [];
  let dir: string | null = null;
  for (const e of entries) {
    const slash = e.path?.lastIndexOf("/") ?? -1;
    const d = e.path !== undefined && slash > 0 && !/\s/.test(e.path) ? e.path.slice(0, slash + 1) : null;
    if (d !== null && d === dir) parts[parts.length - 1] += ` ${e.path!.slice(slash + 1)} (${e.matches})`;
    else parts.push(d === null ? e.text : `${d} ${e.path!.slice(slash + 1)} (${e.matches})`);
    dir = d;
  }
  return parts.join(", ");
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

function display(file: string): string {
  return file.startsWith("./") && file.length > 2 ? file.slice(2) : file;
}

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

/** Whether a path names a file, remembered for the run (bounded). */
function fileCheck(): (path: string) => boolean {
  const seen = new Map<string, boolean>();
  return (path) => {
    let r = seen.get(path);
    if (r === undefined) {
      try {
        r = statSync(path).isFile();
      } catch {
        r = false;
      }
      if (seen.size < 1000) seen.set(path, r);
    }
    return r;
  };
}
