// `ls`: every entry with its type, and its size in the long format.
//
// Long format (`-l`, `-g`, `-o`, `-n`, `--format=long`, `--full-time`): inside a
// directory listing each entry becomes `name  size` — dirs `name/`, symlinks
// `name -> target`, executables `name*`, FIFOs `name|`, sockets `name=` (the
// `ls -F` marks; a name that could be read as carrying one, or as two fields,
// is shell-quoted: `'star*'  0`), sizes of regular files human-readable (`1.2K`). Permissions,
// link counts, owner, group, date, `total N`, `.` and `..` go, unless asked for
// in a way the argv shows:
//   -n, --author, -Z   keep the owner/group (author, context) columns
//   -t, -c, -u, --time, --sort=time, --time-style, --full-time   keep the date
//   -i, -s             keep the inode / block columns (-s also `total`)
//   -h, --si, --block-size   sizes stay in the units asked for
// Entries named on the command line (files, or anything with `-d`) are printed
// before any directory listing: the user asked about those very entries, so
// their line is kept whole. Devices and lines not recognised are kept whole.
// `dir:` headers and the blank lines between listings stay.
//
// Plain format: already one name per line and kept as the tool printed it (adding
// `-p` would make it longer than what plain `ls` prints). Columns
// (`-C`, `-x`, `-m`) and `--zero` pass through. Past MAX_ENTRIES entries the
// rest is counted, with a recall handle.
import { omitted, type Filter, type FilterRun } from "../types.js";
import { ErrorLines, given, humanSize, parseArgs, toolArgs, type ParsedArgs } from "./common.js";

/** Entries shown: a listing longer than this is rarely read whole (the rest is recallable). */
const MAX_ENTRIES = 200;

const SPEC = {
  shortWithValue: "ITw",
  longWithValue: ["block-size", "format", "hide", "ignore", "indicator-style", "quoting-style", "sort", "tabsize", "time", "time-style", "width"],
};

interface LsMode {
  long: boolean;
  /** The output is not one entry per line: left alone. */
  passThrough: boolean;
  /** ls marks types itself (-F, -p, --indicator-style). */
  indicators: boolean;
  keepOwner: boolean;
  keepDate: boolean;
  keepPrefix: boolean;
  /** `total N` counts blocks: kept with -s, which asked for blocks. */
  keepTotal: boolean;
  userUnits: boolean;
  /** Listings can carry `dir:` headers. */
  headers: boolean;
}

function modeOf(p: ParsedArgs): LsMode {
  const format = p.long.get("format");
  const long = given(p, "lgon", ["numeric-uid-gid", "full-time"]) || format === "long" || format === "verbose";
  const style = p.long.get("indicator-style");
  return {
    long,
    passThrough: given(p, "CxmD", ["zero", "dired", "help", "version"]) || (typeof format === "string" && !["long", "verbose", "single-column"].includes(format)),
    indicators: given(p, "Fp", ["classify", "file-type"]) || (typeof style === "string" && style !== "none"),
    keepOwner: given(p, "nZ", ["numeric-uid-gid", "author", "context"]),
    keepDate: given(p, "tcu", ["time", "time-style", "full-time"]) || p.long.get("sort") === "time",
    keepPrefix: given(p, "is", ["inode", "size"]),
    keepTotal: given(p, "s", ["size"]),
    userUnits: given(p, "h", ["human-readable", "si", "block-size"]),
    headers: given(p, "R", ["recursive"]) || p.operands.length > 1,
  };
}

export const ls: Filter = {
  id: "ls",
  // A CR is part of a name.
  lineForm: () => "text",
  start(input, { recall }): FilterRun {
    const mode = modeOf(parseArgs(toolArgs(input), SPEC));
    const err = new ErrorLines();
    const out: string[] = [];
    let entries = 0;
    let hiddenEntries = 0;
    let hiddenListings = 0;
    let changed = false;
    let inListing = false;
    let previous: string | null = null;

    const keep = (line: string, isEntry: boolean, isHeader: boolean) => {
      if (entries >= MAX_ENTRIES) {
        if (isEntry) hiddenEntries++;
        if (isHeader) hiddenListings++;
        changed = true;
        return;
      }
      if (isEntry) entries++;
      out.push(line);
    };

    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (mode.passThrough) return;
        const isHeader = mode.headers && text.endsWith(":") && (previous === null || previous === "");
        previous = text;
        if (text === "") return keep(text, false, false);
        if (isHeader) {
          inListing = false;
          return keep(text, false, true);
        }
        if (!mode.long) return keep(text, !/^total \S+$/.test(text), false);
        if (/^total \S+$/.test(text)) {
          inListing = true;
          if (mode.keepTotal) return keep(text, false, false);
          changed = true;
          return;
        }
        const entry = parseLongLine(text);
        if (!entry || !inListing) return keep(text, true, false);
        const bare = mode.indicators ? entry.name.replace(/\/$/, "") : entry.name;
        if (bare === "." || bare === "..") {
          changed = true;
          return;
        }
        const compact = compactEntry(entry, mode) ?? text;
        if (compact !== text) changed = true;
        keep(compact, true, false);
      },
      end() {
        if (mode.passThrough || !changed) return null;
        if (hiddenEntries || hiddenListings) {
          const where = hiddenListings ? ` (and ${hiddenListings} more directory listings)` : "";
          out.push(omitted(hiddenEntries, `entries${where}`, recall));
        }
        return { stdout: out.length ? out.join("\n") + "\n" : "", stderr: err.text(recall) };
      },
    };
  },
};

export interface LongEntry {
  /** Inode and block columns (-i, -s), as printed. */
  prefix: string[];
  mode: string;
  /** Owner, group, author, context: what stands between the link count and the size. */
  owner: string[];
  size: string;
  date: string;
  /** As printed: `a -> b` for a symlink, with ls's own marks when asked. */
  name: string;
}

const MODE = /^[-bcCdDlMnpPs?][-rwxsStTlL?]{9}[.+@]?$/;
const SIZE = /^\d[\d.,]*[A-Za-z]*$/;

interface Token {
  t: string;
  start: number;
  end: number;
}

/** One line of the long format, or null: the size and date are found by their shape. */
export function parseLongLine(line: string): LongEntry | null {
  const toks: Token[] = [];
  for (const m of line.matchAll(/\S+/g)) toks.push({ t: m[0], start: m.index!, end: m.index! + m[0].length });
  const m = toks.findIndex((t, i) => i <= 2 && MODE.test(t.t));
  if (m < 0 || !/^(\d+|\?)$/.test(toks[m + 1]?.t ?? "")) return null;
  for (let j = m + 2; j < toks.length - 1; j++) {
    let dateAt = j + 1;
    let size = toks[j]!.t;
    if (/^\d+,$/.test(size) && /^\d+$/.test(toks[j + 1]?.t ?? "")) {
      size = `${size} ${toks[j + 1]!.t}`;
      dateAt = j + 2;
    } else if (!SIZE.test(size)) continue;
    const date = dateEnd(line, toks, dateAt);
    if (date === null) continue;
    const name = line.slice(date.nameStart);
    if (!name) continue;
    return {
      prefix: toks.slice(0, m).map((t) => t.t),
      mode: toks[m]!.t,
      owner: toks.slice(m + 2, j).map((t) => t.t),
      size,
      date: toks
        .slice(dateAt, date.last + 1)
        .map((t) => t.t)
        .join(" "),
      name,
    };
  }
  return null;
}

/** Where a date starting at token k ends and the name starts (default, iso, long-iso, full-iso styles). */
function dateEnd(line: string, toks: readonly Token[], k: number): { last: number; nameStart: number } | null {
  const t = (i: number) => toks[i]?.t ?? "";
  const at = (last: number, gap = 1) => (toks[last] && line.slice(toks[last]!.end, toks[last]!.end + gap) === " ".repeat(gap) ? { last, nameStart: toks[last]!.end + gap } : null);
  if (/^\p{L}[\p{L}.]{1,5}$/u.test(t(k)) && /^\d{1,2}$/.test(t(k + 1)) && /^(\d{1,2}:\d{2}|\d{4})$/.test(t(k + 2))) return at(k + 2);
  if (/^\d{4}-\d{2}-\d{2}$/.test(t(k))) {
    const gap = toks[k + 1] ? toks[k + 1]!.start - toks[k]!.end : 0;
    if (gap === 1 && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t(k + 1))) {
      return t(k + 1).length > 5 && /^[-+]\d{4}$/.test(t(k + 2)) ? at(k + 2) : at(k + 1);
    }
    return at(k, 2);
  }
  if (/^\d{2}-\d{2}$/.test(t(k)) && /^\d{2}:\d{2}$/.test(t(k + 1))) return at(k + 1);
  return null;
}

/** The compact form of an entry in a listing, or null to keep its line (devices and other rare types). */
function compactEntry(e: LongEntry, mode: LsMode): string | null {
  const type = e.mode[0];
  let name = e.name;
  // A name that would read as carrying a mark, or as more than one field, is quoted (a symlink's is `a -> b` as ls printed it).
  if (!mode.indicators && type !== "l" && /[*/|=@]$|\s\s|^\s|\s$| -> |^'/.test(name)) name = `'${name.replace(/'/g, "'\\''")}'`;
  if (!mode.indicators) {
    if (type === "d") name += "/";
    else if (type === "p") name += "|";
    else if (type === "s") name += "=";
    else if (type === "-" && /[xst]/.test(e.mode[3]! + e.mode[6]! + e.mode[9]!)) name += "*";
  }
  if (type !== "-" && type !== "d" && type !== "l" && type !== "p" && type !== "s") return null;
  const parts = [...e.prefix, name].join(" ");
  const extra: string[] = [];
  if (type === "-") extra.push(mode.userUnits || !/^\d+$/.test(e.size) ? e.size : humanSize(Number(e.size)));
  if (mode.keepOwner && e.owner.length) extra.push(e.owner.join(" "));
  if (mode.keepDate) extra.push(e.date);
  return [parts, ...extra].join("  ");
}
