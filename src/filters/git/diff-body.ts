// The patch part of `git diff`, `git show` and `git log -p`: one short header
// per file (what happened to it: new, deleted, renamed, mode, binary), every
// hunk header and every `+`/`-` line verbatim, and the unchanged line before
// each change. Other context (before, between and after changes) is marked
// where it stood with its count and recall handle (`… 2 unchanged lines [rtk
// recall <id> --lines 11-12]`, the range when that is still worth it), so line
// positions can still be worked out from the hunk header, and only when the
// marker is shorter than the lines; a huge hunk keeps its head and tail around
// an exact-count recall marker. A machine-written file (a lockfile, a minified bundle, a source map)
// keeps its header line and one marker counting its hunks and lines, unless the
// user named such a file. Lines that are not part of a patch (stat lines, name
// lists) are kept.
import { MARKER_GAIN } from "../kit.js";
import { droppedHere, omitted, type RecallRef } from "../types.js";
import { changeSummary, isCommitLine, type Held } from "./shared.js";

export interface DiffBodyOptions {
  /** Trim context around changes (off when the user chose the context: -U, -W, …). */
  trimContext: boolean;
  /** Keep blank lines outside patches (the user's own --format may mean them). */
  keepBlank: boolean;
  /** Count the hunks of machine-written files instead of showing them (off when the user named one). */
  collapseGenerated: boolean;
}

/** Files git diffs that no one writes by hand: lockfiles, minified bundles, source maps. */
const GENERATED =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lock|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|Gemfile\.lock|composer\.lock|go\.sum|flake\.lock|[^/]+\.min\.(?:js|css)|[^/]+\.(?:js|css)\.map)"?$/;

/** Whether an argument names a machine-written file (`git diff package-lock.json`): its diff is then shown. */
export function namesGenerated(args: readonly string[]): boolean {
  return args.some((a) => GENERATED.test(a));
}

/** Context lines kept each side of a change. */
const CONTEXT = 1;
/** A hunk longer than HEAD + TAIL + SLACK shown lines keeps its first HEAD and last TAIL. */
const HUNK_HEAD = 100;
const HUNK_TAIL = 30;
const HUNK_SLACK = 20;
/** …and holds at most this much text of it at each end (a hunk of huge lines). */
const HUNK_BYTES = 128 * 1024;
/** A run of context this long is held whole; a longer one only by its ends. */
const RUN_HELD = 64;

/** One shown line of a hunk, with how many raw lines it stands for. */
interface Entry {
  text: string;
  raw: number;
  plus: number;
  minus: number;
  /** Context lines this entry stands for without showing them (a `… N unchanged lines` marker). */
  trimmed: number;
}

/** The shown lines of one hunk: all of them, or head + marker + tail when it is huge. */
class HunkSink {
  private head: Entry[] = [];
  private tail: Entry[] = [];
  private headBytes = 0;
  private tailBytes = 0;
  private capping = false;
  readonly hidden = { raw: 0, plus: 0, minus: 0, trimmed: 0 };

  /** A silent sink shows nothing: it only counts (the hunks of a machine-written file). */
  constructor(readonly silent = false) {}

  add(e: Entry): void {
    if (this.silent) {
      this.hidden.raw += e.raw;
      this.hidden.plus += e.plus;
      this.hidden.minus += e.minus;
      return;
    }
    if (!this.tail.length && this.head.length < HUNK_HEAD && this.headBytes + e.text.length <= HUNK_BYTES) {
      this.head.push(e);
      this.headBytes += e.text.length;
      return;
    }
    this.tail.push(e);
    this.tailBytes += e.text.length;
    if (this.tail.length > HUNK_TAIL + HUNK_SLACK || this.tailBytes > HUNK_BYTES) this.capping = true;
    if (!this.capping) return;
    while (this.tail.length > HUNK_TAIL || (this.tailBytes > HUNK_BYTES && this.tail.length > 1)) {
      const x = this.tail.shift()!;
      this.tailBytes -= x.text.length;
      this.hidden.raw += x.raw;
      this.hidden.plus += x.plus;
      this.hidden.minus += x.minus;
      this.hidden.trimmed += x.trimmed;
    }
  }

  /** Attaches a `\ No newline at end of file` note to the last shown line. */
  note(text: string): void {
    if (this.silent) {
      this.hidden.raw++;
      return;
    }
    const last = this.tail.length ? this.tail[this.tail.length - 1] : this.head[this.head.length - 1];
    if (!last) return this.add({ text, raw: 1, plus: 0, minus: 0, trimmed: 0 });
    last.text += "\n" + text;
    last.raw += 1;
  }

  /** Writes the hunk out; returns the context lines trimmed in what is shown. */
  flush(held: Held, recall: RecallRef, what: (h: HunkSink["hidden"]) => string): number {
    let trimmed = 0;
    const put = (e: Entry) => {
      held.push(e.text);
      trimmed += e.trimmed;
    };
    this.head.forEach(put);
    if (this.hidden.raw) held.push(omitted(this.hidden.raw, what(this.hidden), recall));
    this.tail.forEach(put);
    return trimmed;
  }
}

/** A run of unchanged lines between changes, held only by its ends when long. */
class ContextRun {
  lines: string[] = [];
  first: string | null = null;
  last: string | null = null;
  count = 0;
  bytes = 0;
  /** Where its first line stands in the recall entry (0: not known). */
  start = 0;
  /** A no-newline note follows its last line (one more raw line). */
  noted = false;

  add(text: string, at = 0): void {
    if (this.count === 0) {
      this.first = text;
      this.start = at;
    }
    this.last = text;
    this.count++;
    this.bytes += Buffer.byteLength(text) + 1;
    if (this.count <= RUN_HELD) this.lines.push(text);
  }

  /** A no-newline note after the last unchanged line belongs to it. */
  note(text: string): void {
    this.noted = true;
    this.last += "\n" + text;
    this.bytes += Buffer.byteLength(text) + 1;
    if (this.count === 1) this.first = this.last;
    if (this.count <= RUN_HELD) this.lines[this.lines.length - 1] = this.last!;
  }
}

interface FileHead {
  gitLine: string;
  combined: boolean;
  newMode?: string;
  deletedMode?: string;
  oldMode?: string;
  modeTo?: string;
  similarity?: string;
  dissimilarity?: string;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  binary: boolean;
  extra: string[];
  emitted: boolean;
  /** Machine-written (a lockfile, a bundle): decided at its first hunk. */
  generated?: boolean;
}

type State = "none" | "head" | "hunk" | "binary";

export class DiffBody {
  private state: State = "none";
  private file: FileHead | null = null;
  private sink: HunkSink | null = null;
  private run = new ContextRun();
  private changed = false;
  /** Unified hunk: old and new lines still expected. Combined hunk: the width of its line prefix. */
  private oldLeft = 0;
  private newLeft = 0;
  private width = 0;
  private lastWasContext = false;
  /** The current file's hunks when it is machine-written: counted, shown as one marker when the file ends. */
  private generated: { lines: number; hunks: number; plus: number; minus: number } | null = null;
  // The current section (one commit, or the whole diff).
  private files = 0;
  private plus = 0;
  private minus = 0;
  private combinedFiles = 0;
  private gitSummary = false;
  /** Everything: files seen, context lines trimmed from what is shown. */
  filesTotal = 0;
  trimmed = 0;

  constructor(
    private readonly held: Held,
    private readonly recall: RecallRef,
    private readonly opts: DiffBodyOptions,
    /** FilterContext.rawLine: where the line being read stands in the recall entry. */
    private readonly at?: () => number,
  ) {}

  line(text: string): void {
    if (this.state === "hunk" && this.hunkLine(text)) return;
    if (this.state === "binary") {
      if (/^(?:literal|delta) \d+$|^[A-Za-z][0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]*$|^$/.test(text)) {
        this.sink!.add({ text, raw: 1, plus: 0, minus: 0, trimmed: 0 });
        return;
      }
      this.closeHunk();
    }
    if (text.startsWith("diff --git ") || /^diff --(?:cc|combined) /.test(text)) {
      this.closeFile();
      this.file = { gitLine: text, combined: !text.startsWith("diff --git "), binary: false, extra: [], emitted: false };
      this.files++;
      this.filesTotal++;
      if (this.file.combined) this.combinedFiles++;
      this.state = "head";
      return;
    }
    if (this.state === "head" && this.headLine(text)) return;
    if (this.file && /^@@+ /.test(text) && this.startHunk(text)) return;
    // Outside any patch: stat lines, name lists, notes, the user's own format lines.
    this.closeFile();
    if (/^ \d+ files? changed(?:, \d+ insertions?\(\+\))?(?:, \d+ deletions?\(-\))?$/.test(text)) this.gitSummary = true;
    if (text.trim() === "" && !this.opts.keepBlank) return;
    // A stat line loses its alignment padding: ` src/a.ts      |  12 +-` → ` src/a.ts | 12 +-`.
    const stat = /^ (\S(?:.*\S)?) +\| +(\d+(?: [+-]+)?|Bin .*)$/.exec(text);
    this.held.push(stat ? ` ${stat[1]} | ${stat[2]}` : text);
  }

  /** A file header line; false when the line is not one (the header then ends). */
  private headLine(text: string): boolean {
    const f = this.file!;
    let m: RegExpExecArray | null;
    if (/^index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d+)?$/.test(text)) return true;
    if ((m = /^new file mode (\d+)$/.exec(text))) f.newMode = m[1]!;
    else if ((m = /^deleted file mode (\d+)$/.exec(text))) f.deletedMode = m[1]!;
    else if ((m = /^old mode (\d+)$/.exec(text))) f.oldMode = m[1]!;
    else if ((m = /^new mode (\d+)$/.exec(text))) f.modeTo = m[1]!;
    else if ((m = /^similarity index (\d+%)$/.exec(text))) f.similarity = m[1]!;
    else if ((m = /^dissimilarity index (\d+%)$/.exec(text))) f.dissimilarity = m[1]!;
    else if ((m = /^rename from (.+)$/.exec(text))) f.renameFrom = m[1]!;
    else if ((m = /^rename to (.+)$/.exec(text))) f.renameTo = m[1]!;
    else if ((m = /^copy from (.+)$/.exec(text))) f.copyFrom = m[1]!;
    else if ((m = /^copy to (.+)$/.exec(text))) f.copyTo = m[1]!;
    else if (/^(?:---|\+\+\+) /.test(text)) return true;
    else if (/^Binary files .* differ$/.test(text)) f.binary = true;
    else if (text === "GIT binary patch") {
      f.binary = true;
      this.emitHead();
      this.sink = new HunkSink();
      this.state = "binary";
    } else if (/^@@+ /.test(text)) return false;
    else if (text.startsWith("diff --") || isCommitLine(text) || text === "") return false;
    else f.extra.push(text);
    return true;
  }

  private emitHead(): void {
    const f = this.file;
    if (!f || f.emitted) return;
    f.emitted = true;
    this.held.push(fileHeadLine(f));
    for (const x of f.extra) this.held.push(x);
  }

  private startHunk(text: string): boolean {
    const uni = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(text);
    const comb = /^(@{3,}) /.exec(text);
    if (!uni && !comb) return false;
    this.closeHunk();
    this.emitHead();
    const silent = this.opts.collapseGenerated && this.file !== null && (this.file.generated ??= isGenerated(this.file));
    if (silent) {
      this.generated ??= { lines: 0, hunks: 0, plus: 0, minus: 0 };
      this.generated.hunks++;
      this.generated.lines++;
    } else this.held.push(text);
    this.sink = new HunkSink(silent);
    this.run = new ContextRun();
    this.changed = false;
    this.lastWasContext = false;
    if (uni) {
      this.width = 0;
      this.oldLeft = uni[1] === undefined ? 1 : Number(uni[1]);
      this.newLeft = uni[2] === undefined ? 1 : Number(uni[2]);
    } else {
      this.width = comb![1]!.length - 1;
    }
    this.state = "hunk";
    return true;
  }

  /** One line inside a hunk; false when the hunk has ended before it. */
  private hunkLine(text: string): boolean {
    if (text.startsWith("\\")) {
      if (this.lastWasContext) this.run.note(text);
      else this.sink!.note(text);
      return true;
    }
    let change: boolean;
    let plus = 0;
    let minus = 0;
    if (this.width === 0) {
      if (this.oldLeft <= 0 && this.newLeft <= 0) return this.endHunk();
      const c = text[0];
      if (c === " " && this.oldLeft > 0 && this.newLeft > 0) {
        this.oldLeft--;
        this.newLeft--;
        change = false;
      } else if (c === "-" && this.oldLeft > 0) {
        this.oldLeft--;
        change = true;
        minus = 1;
      } else if (c === "+" && this.newLeft > 0) {
        this.newLeft--;
        change = true;
        plus = 1;
      } else if (c !== " " && c !== "-" && c !== "+") {
        // Git writes nothing else inside a hunk: this is the rest of a very long line the runtime
        // handed over in pieces. It is kept as it is, where it stands.
        this.flushRun(this.changed ? "between" : "before");
        this.changed = true;
        this.lastWasContext = false;
        this.sink!.add({ text, raw: 0, plus: 0, minus: 0, trimmed: 0 });
        return true;
      } else return this.endHunk();
    } else {
      const prefix = text.slice(0, this.width);
      if (prefix.length < this.width || !/^[ +-]+$/.test(prefix)) return this.endHunk();
      change = prefix !== " ".repeat(this.width);
    }
    if (!change) {
      const trim = this.opts.trimContext && !this.sink!.silent;
      if (trim) this.run.add(text, this.at?.() ?? 0);
      else this.sink!.add({ text, raw: 1, plus: 0, minus: 0, trimmed: 0 });
      this.lastWasContext = trim;
      return true;
    }
    this.flushRun(this.changed ? "between" : "before");
    this.changed = true;
    this.lastWasContext = false;
    this.plus += plus;
    this.minus += minus;
    this.sink!.add({ text, raw: 1, plus, minus, trimmed: 0 });
    return true;
  }

  private endHunk(): false {
    this.closeHunk();
    return false;
  }

  /**
   * Writes out a run of unchanged lines, keeping CONTEXT lines next to each
   * change; the lines between go behind a marker where they stood, with their
   * range in the recall entry, when that saves more than the marker costs.
   */
  private flushRun(where: "before" | "between" | "after"): void {
    const run = this.run;
    this.run = new ContextRun();
    if (!run.count) return;
    // The line before a change is kept (it places the change); after the last change of a hunk, none.
    const keepFirst = where === "between" ? CONTEXT : 0;
    const keepLast = where === "after" ? 0 : CONTEXT;
    const sink = this.sink!;
    const all = () => run.lines.forEach((text) => sink.add({ text, raw: text.split("\n").length, plus: 0, minus: 0, trimmed: 0 }));
    if (run.count <= keepFirst + keepLast) return all();
    const dropped = run.count - keepFirst - keepLast;
    // A no-newline note after the last line goes with it.
    const rawDropped = dropped + (keepLast === 0 && run.noted ? 1 : 0);
    const first = run.start ? run.start + keepFirst : 0;
    const what = `unchanged ${rawDropped === 1 ? "line" : "lines"}`;
    // The marker names the lines' range when that is still worth it, else the entry alone; when neither is, the lines stay.
    const droppedBytes = run.bytes - lineBytes(run.lines.slice(0, keepFirst)) - lineBytes(run.lines.slice(run.count - keepLast));
    const worth = (m: (ref: RecallRef) => string) => run.count > RUN_HELD || droppedBytes >= Buffer.byteLength(m({ id: () => "0000000" })) + MARKER_GAIN;
    const ranged = (ref: RecallRef) => droppedHere(rawDropped, what, ref, first, first + rawDropped - 1);
    const plain = (ref: RecallRef) => droppedHere(rawDropped, what, ref);
    const marker = first && worth(ranged) ? ranged : worth(plain) ? plain : null;
    if (marker === null) return all();
    if (keepFirst) sink.add({ text: run.first!, raw: run.first!.split("\n").length, plus: 0, minus: 0, trimmed: 0 });
    sink.add({ text: marker(this.recall), raw: rawDropped, plus: 0, minus: 0, trimmed: dropped });
    if (keepLast) sink.add({ text: run.last!, raw: run.last!.split("\n").length, plus: 0, minus: 0, trimmed: 0 });
  }

  private closeHunk(): void {
    if (!this.sink) return;
    if (this.sink.silent) {
      const g = this.generated!;
      g.lines += this.sink.hidden.raw;
      g.plus += this.sink.hidden.plus;
      g.minus += this.sink.hidden.minus;
      this.sink = null;
      this.state = "none";
      return;
    }
    if (this.state === "hunk") this.flushRun(this.changed ? "after" : "between");
    const binary = this.state === "binary";
    const shownTrimmed = this.sink.flush(this.held, this.recall, (h) => (binary ? "binary patch lines" : `lines of this hunk (+${h.plus} -${h.minus})`));
    this.trimmed += shownTrimmed;
    this.sink = null;
    // After a hunk only another hunk (or the next file) belongs to the file.
    this.state = "none";
  }

  private closeFile(): void {
    this.closeHunk();
    if (this.file) this.emitHead();
    const g = this.generated;
    if (g) {
      this.held.push(omitted(g.lines, `lines (${g.hunks} ${g.hunks === 1 ? "hunk" : "hunks"} of a generated file, +${g.plus} -${g.minus})`, this.recall));
      this.generated = null;
    }
    this.file = null;
    this.state = "none";
  }

  /** Ends a section (a commit's patch, or the whole diff): its summary line, when it had files. */
  finishSection(): void {
    this.closeFile();
    if (this.files && !this.gitSummary) {
      const unified = this.files > this.combinedFiles || this.plus + this.minus > 0;
      this.held.push(changeSummary(this.files, unified ? this.plus : null, unified ? this.minus : null));
    }
    this.files = this.plus = this.minus = this.combinedFiles = 0;
    this.gitSummary = false;
  }

  /** The output stops being held (the memory cap): what is pending is written as it stands. */
  abort(): void {
    this.closeFile();
  }
}

function isGenerated(f: FileHead): boolean {
  const path = f.renameTo ?? f.copyTo ?? pathOf(f.gitLine);
  return path !== null && GENERATED.test(path);
}

function lineBytes(lines: readonly string[]): number {
  return lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
}

/** `M path`, `A path`, `D path`, `R old -> new (95%)`, with mode, binary and combined notes. */
function fileHeadLine(f: FileHead): string {
  const notes: string[] = [];
  let kind = "M";
  let name: string;
  if (f.renameFrom !== undefined && f.renameTo !== undefined) {
    kind = "R";
    name = `${f.renameFrom} -> ${f.renameTo}`;
  } else if (f.copyFrom !== undefined && f.copyTo !== undefined) {
    kind = "C";
    name = `${f.copyFrom} -> ${f.copyTo}`;
  } else {
    // Two different sides and no rename (`git diff --no-index a b`): both, as git names them.
    name = pathOf(f.gitLine) ?? f.gitLine.replace(/^diff --git /, "");
    if (f.newMode !== undefined) kind = "A";
    else if (f.deletedMode !== undefined) kind = "D";
  }
  if (f.similarity) notes.push(f.similarity);
  if (f.dissimilarity) notes.push(`dissimilarity ${f.dissimilarity}`);
  const mode = f.newMode ?? f.deletedMode;
  if (mode && mode !== "100644") notes.push(`mode ${mode}`);
  if (f.oldMode && f.modeTo) notes.push(`mode ${f.oldMode} -> ${f.modeTo}`);
  if (f.binary) notes.push("binary");
  if (f.combined) notes.push("combined");
  return `${kind} ${name}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

/**
 * The path of `diff --git a/P b/P` (any one-letter prefixes, or none), kept
 * quoted when git quoted it; null when the two sides differ (then the
 * rename/copy lines name them) or cannot be told apart.
 */
export function pathOf(gitLine: string): string | null {
  const comb = /^diff --(?:cc|combined) (.+)$/.exec(gitLine);
  if (comb) return comb[1]!;
  const rest = gitLine.slice("diff --git ".length);
  if ((rest.length - 1) % 2 !== 0) return null;
  const half = (rest.length - 1) / 2;
  if (rest[half] !== " ") return null;
  let left = rest.slice(0, half);
  let right = rest.slice(half + 1);
  const quoted = left.startsWith('"') && left.endsWith('"') && right.startsWith('"') && right.endsWith('"');
  if (quoted) {
    left = left.slice(1, -1);
    right = right.slice(1, -1);
  }
  let path: string | null = null;
  if (left === right) path = left;
  else {
    const strip = (s: string) => (/^[^/]\//.test(s) ? s.slice(2) : null);
    const l = strip(left);
    if (l !== null && l === strip(right)) path = l;
  }
  if (path === null) return null;
  return quoted ? `"${path}"` : path;
}
