// `ls`: every entry with its type, and its size in the long format.
//
// Long format (`-l`, `-g`, `-o`, `-n`, `--format=long`, `--full-time`): inside a
// directory listing each entry becomes `name  size` — dirs `name/`, symlinks
// `name -> target`, executables `name*`, FIFOs `name|`, sockets `name=` (the
// `ls -F` marks; a name that could be read as carrying one, or as two fields,
// is shell-quoted: `'star*'  0`), sizes of regular files human-readable (`1.2K`),
// then the facts that differ from the ordinary: a mode that is not the
// listing's usual one for its type (a private file `-rw-------`, a setuid
// program, a sticky folder), an owner/group that is not the listing's most
// common one. Link counts, the usual mode and owner, dates, `total N`, `.` and
// `..` go, and one marker at the end names the columns left out, of how many
// entries, with the recall handle (`(mode/owner/date of 30 entries left out
// [rtk recall <id>])`).
// Columns are kept when asked for in a way the argv shows:
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
// `-p` would make it longer than what plain `ls` prints), within the budget below. Columns
// (`-C`, `-x`, `-m`) and `--zero` pass through. Past the list budget
// (`[limits] list_tokens`) the first lines that fit are shown and the rest
// is counted, with a recall handle.
import { limitsOf } from "../budget.js";
import { ErrorLines, fitCount } from "../kit.js";
import { omitted, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { given, humanSize, parseArgs, toolArgs, type ParsedArgs } from "./common.js";

/** Characters of lines held; past it, entries are counted only (memory stays bounded). */
const HELD_CHARS = 4 * 1024 * 1024;
/** Characters kept in the budget for the markers. */
const MARKER_ROOM = 300;

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
  start: (input, ctx) => new LsRun(input, ctx),
};

class LsRun implements FilterRun {
  private readonly mode: LsMode;
  private readonly err = new ErrorLines();
  /** The output in order: kept lines, and the entries of listings (rendered at the end, when the usual values are known). */
  private readonly items: Item[] = [];
  private listing = 0;
  private heldChars = 0;
  private unheld = 0;
  private changed = false;
  private inListing = false;
  private previous: string | null = null;

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    this.mode = modeOf(parseArgs(toolArgs(input), SPEC));
  }

  line(stream: "out" | "err", text: string): void {
    if (stream === "err") return this.err.add(text);
    const mode = this.mode;
    if (mode.passThrough) return;
    const isHeader = mode.headers && text.endsWith(":") && (this.previous === null || this.previous === "");
    this.previous = text;
    if (text === "") return this.keep(text, false, false);
    if (isHeader) {
      this.inListing = false;
      return this.keep(text, false, true);
    }
    if (!mode.long) return this.keep(text, !/^total \S+$/.test(text), false);
    if (/^total \S+$/.test(text)) {
      this.inListing = true;
      this.listing++;
      if (mode.keepTotal) return this.keep(text, false, false);
      this.changed = true;
      return;
    }
    const entry = parseLongLine(text);
    if (!entry || !this.inListing) return this.keep(text, true, false);
    const bare = mode.indicators ? entry.name.replace(/\/$/, "") : entry.name;
    if (bare === "." || bare === "..") {
      this.changed = true;
      return;
    }
    if (this.heldChars > HELD_CHARS) {
      this.unheld++;
      this.changed = true;
      return;
    }
    this.heldChars += text.length + 1;
    this.items.push({ entry, raw: text, listing: this.listing });
  }

  end(): CompactOutput | null {
    if (this.mode.passThrough) return null;
    const { recall } = this.ctx;
    const { lines, dropped } = this.rendered();
    // Every line while the whole fits the budget; else the first that do, the rest counted.
    const budget = limitsOf(this.ctx).list;
    const chars = lines.reduce((n, l) => n + l.text.length + 1, 0);
    const over = chars > budget || this.unheld > 0;
    // Nothing to change and nothing to cut: the tool's own output is the compact form.
    if (!this.changed && !over) return null;
    const shown = over ? fitCount(lines, budget - MARKER_ROOM, (l) => l.text.length + 1) : lines.length;
    const out = lines.slice(0, shown).map((l) => l.text);
    const hiddenEntries = this.unheld + lines.slice(shown).filter((l) => l.isEntry).length;
    const hiddenListings = lines.slice(shown).filter((l) => l.isHeader).length;
    if (hiddenEntries || hiddenListings) {
      const where = hiddenListings ? ` (and ${hiddenListings} more directory ${hiddenListings === 1 ? "listing" : "listings"})` : "";
      out.push(omitted(hiddenEntries, `entries${where}`, recall));
    }
    if (dropped) out.push(droppedMarker(dropped, this.mode, recall));
    return { stdout: out.length ? out.join("\n") + "\n" : "", stderr: this.err.text(recall) };
  }

  private keep(line: string, isEntry: boolean, isHeader: boolean): void {
    if (this.heldChars > HELD_CHARS) {
      if (isEntry) this.unheld++;
      this.changed = true;
      return;
    }
    this.heldChars += line.length + 1;
    this.items.push({ line, isEntry, isHeader });
  }

  /** Every line held, its entries compacted against their listing's usual values; how many had columns dropped. */
  private rendered(): { lines: { text: string; isEntry: boolean; isHeader: boolean }[]; dropped: number } {
    const usual = usualValues(this.items);
    let dropped = 0;
    const lines = this.items.map((it) => {
      if (!("entry" in it)) return { text: it.line, isEntry: it.isEntry, isHeader: it.isHeader };
      const r = compactEntry(it.entry, this.mode, usual.get(it.listing)!);
      if (r === null) return { text: it.raw, isEntry: true, isHeader: false };
      if (r.dropped) dropped++;
      if (r.text !== it.raw) this.changed = true;
      return { text: r.text, isEntry: true, isHeader: false };
    });
    return { lines, dropped };
  }
}

type Item = { line: string; isEntry: boolean; isHeader: boolean } | { entry: LongEntry; raw: string; listing: number };

/** What is ordinary in one listing: the most common mode of its files and of its folders, and the most common owner. */
interface Usual {
  fileMode: string | null;
  dirMode: string | null;
  owner: string | null;
}

function usualValues(items: readonly Item[]): Map<number, Usual> {
  const counts = new Map<number, { file: Map<string, number>; dir: Map<string, number>; owner: Map<string, number> }>();
  for (const it of items) {
    if (!("entry" in it)) continue;
    let c = counts.get(it.listing);
    if (!c) counts.set(it.listing, (c = { file: new Map(), dir: new Map(), owner: new Map() }));
    const type = it.entry.mode[0];
    const perms = it.entry.mode;
    if (type === "-") c.file.set(perms, (c.file.get(perms) ?? 0) + 1);
    if (type === "d") c.dir.set(perms, (c.dir.get(perms) ?? 0) + 1);
    const owner = it.entry.owner.join(" ");
    c.owner.set(owner, (c.owner.get(owner) ?? 0) + 1);
  }
  // A tie has no usual value: each of the tied values is then shown.
  const most = (m: Map<string, number>) => {
    let best: string | null = null;
    let n = 0;
    let tied = false;
    for (const [k, v] of m) {
      if (v > n) [best, n, tied] = [k, v, false];
      else if (v === n) tied = true;
    }
    return tied ? null : best;
  };
  return new Map([...counts].map(([l, c]) => [l, { fileMode: most(c.file), dirMode: most(c.dir), owner: most(c.owner) }]));
}

/** The one marker for the columns left out: which, and of how many entries. */
function droppedMarker(count: number, mode: LsMode, recall: RecallRef): string {
  const columns = ["mode", ...(mode.keepOwner ? [] : ["owner"]), ...(mode.keepDate ? [] : ["date"])].join("/");
  return `(${columns} of ${count} ${count === 1 ? "entry" : "entries"} left out [rtk recall ${recall.id()}])`;
}

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

/**
 * The compact form of an entry in a listing, and whether columns of it were
 * left out; null to keep its line (devices and other rare types).
 */
function compactEntry(e: LongEntry, mode: LsMode, usual: Usual): { text: string; dropped: boolean } | null {
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
  // A mode or owner that differs from the listing's usual one is a fact (a private file, a setuid program, another user's file).
  const ownMode = type === "l" ? false : e.mode !== (type === "d" ? usual.dirMode : type === "-" ? usual.fileMode : null);
  if (ownMode) extra.push(e.mode);
  const owner = e.owner.join(" ");
  const ownOwner = owner !== "" && (mode.keepOwner || owner !== usual.owner);
  if (ownOwner) extra.push(owner);
  if (mode.keepDate) extra.push(e.date);
  return { text: [parts, ...extra].join("  "), dropped: !ownMode || (owner !== "" && !ownOwner) || !mode.keepDate };
}
