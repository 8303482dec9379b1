// `git add/commit/push/pull/fetch/branch/stash/checkout/switch/merge/rebase`.
// Success: one summary line on stdout with the essentials — the commit and its
// branch, the refs that moved and where, what a merge or pull brought (counts
// and paths; a commit's own paths are what the caller just staged, so a commit
// keeps its counts only) — and the lines that are not chatter kept as they
// are, on the stream they came from. Progress, transfer statistics, advice and
// a hosting service's "create a merge/pull request" hint go. Failure (exit
// ≠ 0): every line git printed except progress, on its own stream. A
// success's lists (paths, refs, `git branch`'s lines) are whole while they fit
// the list budget; past it the first that fit, the rest counted.
import { limitsOf, type Limits } from "../budget.js";
import { BoundedLines, listWithin, rawRun } from "../kit.js";
import { linesText, omitted, type CompactOutput, type Filter, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { namesGenerated } from "./diff-body.js";
import { startHistory } from "./history.js";
import { gitStatus } from "./status.js";
import { HELD_BYTES, changeSummary, isProgress, subcommandArgs } from "./shared.js";

type Stream = "out" | "err";

interface Line {
  stream: Stream;
  text: string;
}

export const gitAction: Filter = {
  id: "git.action",
  // Progress rewrites its line in place (push, fetch, pull); `stash show -p` prints a patch.
  lineForm(input) {
    const { sub, args } = subcommandArgs(input);
    return sub === "stash" && args[0] === "show" ? "patch" : "terminal";
  },
  start(input, { recall, limits, rawLine }) {
    const { sub, args } = subcommandArgs(input);
    // `git stash list` with options (`--stat`, `-p`) is a log of its own: kept as git prints it.
    if (sub === "stash" && args[0] === "list" && args.length > 1) return rawRun();
    // `git stash show -p` prints a patch: compacted as `git diff` compacts it.
    if (sub === "stash" && args[0] === "show") {
      return startHistory(
        recall,
        { body: "all", trimContext: true, commits: true, collapseGenerated: !namesGenerated(args), recognise: (l) => l.startsWith("diff --") },
        limitsOf({ limits }),
        rawLine,
      );
    }
    return startAction(input, sub, recall, limitsOf({ limits }));
  },
};

function startAction(input: FilterInput, sub: string, recall: RecallRef, limits: Limits): FilterRun {
  const held = new BoundedLines<Line>(HELD_BYTES, (l) => l.text.length + 1);
  return {
    line(stream, text) {
      held.add({ stream, text });
    },
    end(exitCode) {
      const lines = held.items;
      if (!lines.length) return null;
      const kept = exitCode === 0 ? withinBudget(success(input, sub, lines, recall, limits.list), limits.list, recall) : failure(lines);
      if (held.dropped) kept.push({ stream: "out", text: omitted(held.dropped, "lines", recall) });
      return render(kept);
    },
  };
}

function success(input: FilterInput, sub: string, lines: readonly Line[], recall: RecallRef, budget: number): Line[] {
  const reader = new SuccessReader(input, sub, recall);
  for (const l of lines) reader.line(l);
  return reader.end(budget / 2);
}

function render(lines: readonly Line[]): CompactOutput {
  return {
    stdout: linesText(lines.filter((l) => l.stream === "out").map((l) => l.text)),
    stderr: linesText(lines.filter((l) => l.stream === "err").map((l) => l.text)),
  };
}

/** Lines that are never a result: progress, blank lines, advice on how to silence advice. */
function chatter(text: string): boolean {
  return (
    text.trim() === "" ||
    /^remote:\s*$/.test(text) ||
    isProgress(text) ||
    /^hint: (?:Disable this message with|Turn this message off by running$|"git config advice\.)/.test(text) ||
    /^Turn off this advice by setting config variable advice\./.test(text)
  );
}

function failure(lines: readonly Line[]): Line[] {
  return lines.filter((l) => !chatter(l.text));
}

/** A ref update of push or fetch: `   a1b2c3d..e4f5a6b  main -> main`, ` * [new branch]  topic -> origin/topic`. */
const REF = /^ ([ +*=!t-]) (\[[^\]]+\]|\S+)\s+(\S+)(?:\s+->\s+(\S+))?(?:\s+\((.+)\))?$/;
/** A diffstat line: ` path | 3 ++-`, ` img.png | Bin 0 -> 3 bytes`. */
const STAT = /^ (.+?) +\| +(?:\d+(?: [+-]+)?|Bin(?: .*)?)$/;
/** What GitLab, GitHub, Bitbucket and Gitea print after a push of a branch: a link to open a request follows. */
const REQUEST_HINT = /^remote: +(?:To create a merge request for .+, visit:|Create a pull request for '.+' on GitHub by visiting:|Create pull request for .+:|Create a new pull request for '.+':)\s*$/;
const STAT_SUMMARY = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$/;

interface Remote {
  where: string;
  refs: string[];
}

interface Summary {
  head: string | null;
  remotes: Remote[];
  tracking: string[];
  files: number | null;
  insertions: number;
  deletions: number;
  paths: Map<string, string[]>;
  added: string[];
  removed: string[];
}

/** A success's stdout lines while they fit the budget; past it the first that do, the rest counted (stderr stays whole). */
function withinBudget(kept: Line[], budget: number, recall: RecallRef): Line[] {
  let chars = 0;
  for (const l of kept) if (l.stream === "out") chars += l.text.length + 1;
  if (chars <= budget) return kept;
  const out: Line[] = [];
  let used = 0;
  let hidden = 0;
  for (const l of kept) {
    if (l.stream === "err") out.push(l);
    else if (!hidden && (used === 0 || used + l.text.length + 1 <= budget - 60)) {
      out.push(l);
      used += l.text.length + 1;
    } else hidden++;
  }
  out.push({ stream: "out", text: omitted(hidden, "lines", recall) });
  return out;
}

/** What a line of a success is: part of the summary (which then stands where the first such line stood), a line to print, or nothing. */
type Outcome = "summary" | Line | null;

/**
 * A line shape of a successful run and what it gives. The first rule that
 * applies to a line (its subcommand, its condition, its pattern) decides;
 * a line no rule takes is printed as it is.
 */
interface Rule {
  re: RegExp;
  /** Only for this subcommand. */
  sub?: string;
  /** Only when this holds of what was read so far. */
  when?: (r: SuccessReader, l: Line) => boolean;
  then: (m: RegExpExecArray, r: SuccessReader, l: Line) => Outcome;
}

const STATUS_START = /^(?:On branch |HEAD detached |Changes to be committed:|Changes not staged for commit:|Untracked files:|Unmerged paths:)/;

const RULES: readonly Rule[] = [
  // `fetch --all`: each remote's `From <url>` line says where its refs came from.
  { re: /^Fetching \S+$/, sub: "fetch", then: () => null },
  // The advice git prints on entering a detached HEAD follows, up to the line saying where HEAD is.
  { re: /^Note: switching to '.*'\.$/, then: (_, r, l) => ((r.detachedAdvice = true), l) },
  // `stash pop/apply` prints the working tree's status: compacted as `git status` is.
  { re: STATUS_START, sub: "stash", when: (_, l) => l.stream === "out", then: (_, r, l) => ((r.status = [l]), null) },
  { re: /^(To|From) (.+)$/, then: (m, r) => ((r.remote = { where: `${m[1]} ${m[2]}`, refs: [] }), r.s.remotes.push(r.remote), "summary") },
  { re: REF, when: (r) => r.remote !== null, then: (m, r) => (r.remote!.refs.push(`${m[3]}${m[4] ? ` -> ${m[4]}` : ""} ${m[2]}${m[5] ? ` (${m[5]})` : ""}`), null) },
  { re: /^branch '(.+)' set up to track '(.+)'\.$/, then: (m, r) => (r.s.tracking.push(`${m[1]} tracks ${m[2]}`), "summary") },
  { re: /^\[(.+) ([0-9a-f]{7,64})\] (.*)$/, sub: "commit", then: (m, r) => ((r.s.head = m[0]), "summary") },
  { re: /^Updating ([0-9a-f]{7,64}\.\.[0-9a-f]{7,64})$/, then: (m, r) => ((r.s.head = r.s.head ? `${r.s.head} ${m[1]}` : m[1]!), "summary") },
  {
    re: /^(?:Fast-forward|Merge made by the '.+' strategy\.)$/,
    then: (m, r) => {
      const what = m[0].replace(/\.$/, "");
      r.s.head = r.s.head ? `${what} ${r.s.head}` : what;
      return "summary";
    },
  },
  { re: /^Auto-merging /, then: () => null },
  { re: /^ Date: /, sub: "commit", then: () => null },
  {
    re: STAT_SUMMARY,
    then: (m, r) => {
      r.s.files = Number(m[1]);
      r.s.insertions = Number(m[2] ?? 0);
      r.s.deletions = Number(m[3] ?? 0);
      return "summary";
    },
  },
  { re: /^ (create|delete) mode \d+ (.+)$/, then: (m, r) => (r.tag(m[2]!, m[1] === "create" ? "new" : "deleted"), "summary") },
  { re: /^ (rename|copy) (.+) \((\d+%)\)$/, then: (m, r) => (r.tag(m[2]!, `${m[1] === "rename" ? "renamed" : "copied"} ${m[3]}`), "summary") },
  { re: /^ mode change (\d+) => (\d+) (.+)$/, then: (m, r) => (r.tag(m[3]!, `mode ${m[1]} => ${m[2]}`), "summary") },
  { re: STAT, when: (r) => r.s.head !== null, then: (m, r) => (r.tag(m[1]!, null), "summary") },
  { re: /^(add|remove) '(.+)'$/, sub: "add", then: (m, r) => ((m[1] === "add" ? r.s.added : r.s.removed).push(m[2]!), "summary") },
  { re: /^(Dropped .+) \(([0-9a-f]{40,64})\)$/, then: (m, _, l) => ({ stream: l.stream, text: `${m[1]} (${m[2]!.slice(0, 7)})` }) },
  { re: /^([* +] )(\S+) +([0-9a-f]{7,64}) (.*)$/, sub: "branch", then: (m, _, l) => ({ stream: l.stream, text: `${m[1]}${m[2]} ${m[3]} ${m[4]}` }) },
  // The remote pads its lines to clear a terminal's line: the padding goes.
  { re: /^remote: /, then: (_, __, l) => ({ stream: l.stream, text: l.text.trimEnd() }) },
];

/** Reads a successful run's lines into its summary and the lines it prints (see RULES). */
class SuccessReader {
  readonly s: Summary = { head: null, remotes: [], tracking: [], files: null, insertions: 0, deletions: 0, paths: new Map(), added: [], removed: [] };
  readonly kept: Line[] = [];
  /** The remote of the last `To`/`From` line: the ref updates below it are its own. */
  remote: Remote | null = null;
  /** Inside the advice on entering a detached HEAD: dropped up to `HEAD is now at`. */
  detachedAdvice = false;
  /** The status `stash pop/apply` prints, held until it ends. */
  status: Line[] | null = null;
  /** Where the summary line goes: where its first line stood. */
  private summaryAt = -1;
  /** The previous line was a hosting service's request hint: the link that follows goes too. */
  private requestHint = false;

  constructor(
    private readonly input: FilterInput,
    private readonly sub: string,
    private readonly recall: RecallRef,
  ) {}

  tag(path: string, note: string | null): void {
    const notes = this.s.paths.get(path) ?? [];
    if (note) notes.push(note);
    this.s.paths.set(path, notes);
  }

  line(l: Line): void {
    const t = l.text;
    if (this.requestHint) {
      this.requestHint = false;
      if (/^remote: +\S+:\/\/\S+\s*$/.test(t)) return;
    }
    if (REQUEST_HINT.test(t)) {
      this.requestHint = true;
      return;
    }
    if (this.detachedAdvice) {
      if (!/^HEAD is now at /.test(t)) return;
      this.detachedAdvice = false;
    }
    if (this.status) {
      if (!/^Dropped /.test(t)) return void this.status.push(l);
      this.flushStatus();
    }
    if (chatter(t)) return;
    for (const rule of RULES) {
      if ((rule.sub !== undefined && rule.sub !== this.sub) || (rule.when && !rule.when(this, l))) continue;
      const m = rule.re.exec(t);
      if (m) return this.take(rule.then(m, this, l));
    }
    this.kept.push(l);
  }

  /** The lines to print, the summary line among them; each of its lists whole while it fits in `chars`. */
  end(chars: number): Line[] {
    this.flushStatus();
    if (this.sub === "commit") this.s.paths.clear();
    const line = summaryLine(this.s, this.recall, chars);
    if (line !== null) this.kept.splice(this.summaryAt < 0 ? this.kept.length : this.summaryAt, 0, { stream: "out", text: line });
    return this.kept;
  }

  private take(outcome: Outcome): void {
    if (outcome === "summary") {
      if (this.summaryAt < 0) this.summaryAt = this.kept.length;
    } else if (outcome) this.kept.push(outcome);
  }

  /** The working-tree status `git stash pop/apply` prints, compacted as `git status` is. */
  private flushStatus(): void {
    const status = this.status;
    if (!status) return;
    this.status = null;
    const statusInput: FilterInput = { argv: ["git", "status"], toolIndex: 0, subIndex: 1, route: this.input.route };
    const run = gitStatus.start(statusInput, { recall: this.recall, emit: { out() {}, err() {} } });
    for (const l of status) run.line(l.stream, l.text);
    const out = run.end(0);
    if (!out) {
      this.kept.push(...status.filter((l) => !chatter(l.text)));
      return;
    }
    for (const text of out.stdout.split("\n").filter(Boolean)) this.kept.push({ stream: "out", text });
    for (const text of out.stderr.split("\n").filter(Boolean)) this.kept.push({ stream: "err", text });
  }
}

/** The summary line; each of its lists is whole while it fits in `chars`. */
function summaryLine(s: Summary, recall: RecallRef, chars: number): string | null {
  const parts: string[] = [];
  for (const r of s.remotes) parts.push(r.refs.length ? `${r.where}: ${listWithin(r.refs, chars, "refs", recall)}` : r.where);
  if (s.tracking.length) parts.push(s.tracking.join(", "));
  if (s.head !== null || s.files !== null || s.paths.size) {
    let text = s.head ?? "";
    if (s.files !== null) text += `${text ? " — " : ""}${changeSummary(s.files, s.insertions, s.deletions)}`;
    if (s.paths.size) {
      const entries = [...s.paths].map(([p, notes]) => (notes.length ? `${p} (${notes.join(", ")})` : p));
      text += `${text ? ": " : ""}${listWithin(entries, chars, "paths", recall)}`;
    }
    parts.push(text);
  }
  for (const [what, paths] of [
    ["add", s.added],
    ["remove", s.removed],
  ] as const) {
    if (paths.length) parts.push(`${what} (${paths.length}): ${listWithin(paths, chars, "paths", recall)}`);
  }
  return parts.length ? parts.join("; ") : null;
}
