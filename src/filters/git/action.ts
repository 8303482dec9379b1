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
  start(input, { recall, limits }) {
    const { sub, args } = subcommandArgs(input);
    // `git stash list` with options (`--stat`, `-p`) is a log of its own: kept as git prints it.
    if (sub === "stash" && args[0] === "list" && args.length > 1) return { line() {}, end: () => null };
    // `git stash show -p` prints a patch: compacted as `git diff` compacts it.
    if (sub === "stash" && args[0] === "show") {
      return startHistory(recall, { body: "all", trimContext: true, commits: true, collapseGenerated: !namesGenerated(args), recognise: (l) => l.startsWith("diff --") });
    }
    return startAction(input, sub, recall, limitsOf({ limits }));
  },
};

function startAction(input: FilterInput, sub: string, recall: RecallRef, limits: Limits): FilterRun {
  const lines: Line[] = [];
  let bytes = 0;
  let over = 0;
  return {
    line(stream, text) {
      if (bytes > HELD_BYTES) {
        over++;
        return;
      }
      lines.push({ stream, text });
      bytes += text.length + 1;
    },
    end(exitCode) {
      if (!lines.length) return null;
      const kept = exitCode === 0 ? withinBudget(success(input, sub, lines, recall, limits.list), limits.list, recall) : failure(lines);
      if (over) kept.push({ stream: "out", text: omitted(over, "lines", recall) });
      return render(kept);
    },
  };
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

/** The first items whose text fits in `chars` (at least one), and how many are left. */
function fitting(items: readonly string[], chars: number): { shown: string[]; more: number } {
  let used = 0;
  let n = 0;
  while (n < items.length && (n === 0 || used + items[n]!.length + 2 <= chars)) used += items[n++]!.length + 2;
  return { shown: items.slice(0, n), more: items.length - n };
}

function success(input: FilterInput, sub: string, lines: readonly Line[], recall: RecallRef, budget: number): Line[] {
  const s: Summary = { head: null, remotes: [], tracking: [], files: null, insertions: 0, deletions: 0, paths: new Map(), added: [], removed: [] };
  const kept: Line[] = [];
  let remote: Remote | null = null;
  let detachedAdvice = false;
  let status: Line[] | null = null;
  let summaryAt = -1;
  const mark = () => {
    if (summaryAt < 0) summaryAt = kept.length;
  };
  const tag = (path: string, note: string | null) => {
    const notes = s.paths.get(path) ?? [];
    if (note) notes.push(note);
    s.paths.set(path, notes);
  };
  let requestHint = false;
  for (const l of lines) {
    const t = l.text;
    let m: RegExpExecArray | null;
    // The link that follows a hosting service's request hint.
    if (requestHint) {
      requestHint = false;
      if (/^remote: +\S+:\/\/\S+\s*$/.test(t)) continue;
    }
    if (REQUEST_HINT.test(t)) {
      requestHint = true;
      continue;
    }
    // The advice git prints on entering a detached HEAD, up to the line saying where HEAD is.
    if (detachedAdvice) {
      if (!/^HEAD is now at /.test(t)) continue;
      detachedAdvice = false;
    }
    if (status) {
      if (/^Dropped /.test(t)) {
        flushStatus(input, status, kept, recall);
        status = null;
      } else {
        status.push(l);
        continue;
      }
    }
    if (chatter(t)) continue;
    // `fetch --all`: each remote's `From <url>` line says where its refs came from.
    if (sub === "fetch" && /^Fetching \S+$/.test(t)) continue;
    if (/^Note: switching to '.*'\.$/.test(t)) {
      detachedAdvice = true;
      kept.push(l);
    } else if (sub === "stash" && l.stream === "out" && /^(?:On branch |HEAD detached |Changes to be committed:|Changes not staged for commit:|Untracked files:|Unmerged paths:)/.test(t)) {
      status = [l];
    } else if ((m = /^(To|From) (.+)$/.exec(t))) {
      remote = { where: `${m[1]} ${m[2]}`, refs: [] };
      s.remotes.push(remote);
      mark();
    } else if (remote && (m = REF.exec(t))) {
      remote.refs.push(`${m[3]}${m[4] ? ` -> ${m[4]}` : ""} ${m[2]}${m[5] ? ` (${m[5]})` : ""}`);
    } else if ((m = /^branch '(.+)' set up to track '(.+)'\.$/.exec(t))) {
      s.tracking.push(`${m[1]} tracks ${m[2]}`);
      mark();
    } else if ((m = /^\[(.+) ([0-9a-f]{7,64})\] (.*)$/.exec(t)) && sub === "commit") {
      s.head = t;
      mark();
    } else if ((m = /^Updating ([0-9a-f]{7,64}\.\.[0-9a-f]{7,64})$/.exec(t))) {
      s.head = s.head ? `${s.head} ${m[1]}` : m[1]!;
      mark();
    } else if (t === "Fast-forward" || /^Merge made by the '.+' strategy\.$/.test(t)) {
      const what = t.replace(/\.$/, "");
      s.head = s.head ? `${what} ${s.head}` : what;
      mark();
    } else if (/^Auto-merging /.test(t)) {
      continue;
    } else if (/^ Date: /.test(t) && sub === "commit") {
      continue;
    } else if ((m = STAT_SUMMARY.exec(t))) {
      s.files = Number(m[1]);
      s.insertions = Number(m[2] ?? 0);
      s.deletions = Number(m[3] ?? 0);
      mark();
    } else if ((m = /^ (create|delete) mode \d+ (.+)$/.exec(t))) {
      tag(m[2]!, m[1] === "create" ? "new" : "deleted");
      mark();
    } else if ((m = /^ (rename|copy) (.+) \((\d+%)\)$/.exec(t))) {
      tag(m[2]!, `${m[1] === "rename" ? "renamed" : "copied"} ${m[3]}`);
      mark();
    } else if ((m = /^ mode change (\d+) => (\d+) (.+)$/.exec(t))) {
      tag(m[3]!, `mode ${m[1]} => ${m[2]}`);
      mark();
    } else if ((m = STAT.exec(t)) && s.head !== null) {
      tag(m[1]!, null);
      mark();
    } else if ((m = /^(add|remove) '(.+)'$/.exec(t)) && sub === "add") {
      (m[1] === "add" ? s.added : s.removed).push(m[2]!);
      mark();
    } else if ((m = /^(Dropped .+) \(([0-9a-f]{40,64})\)$/.exec(t))) {
      kept.push({ stream: l.stream, text: `${m[1]} (${m[2]!.slice(0, 7)})` });
    } else if (sub === "branch" && (m = /^([* +] )(\S+) +([0-9a-f]{7,64}) (.*)$/.exec(t))) {
      kept.push({ stream: l.stream, text: `${m[1]}${m[2]} ${m[3]} ${m[4]}` });
    } else if (/^remote: /.test(t)) {
      // The remote pads its lines to clear a terminal's line: the padding goes.
      kept.push({ stream: l.stream, text: t.trimEnd() });
    } else {
      kept.push(l);
    }
  }
  if (status) flushStatus(input, status, kept, recall);
  if (sub === "commit") s.paths.clear();
  const line = summaryLine(s, recall, budget / 2);
  if (line !== null) kept.splice(summaryAt < 0 ? kept.length : summaryAt, 0, { stream: "out", text: line });
  return kept;
}

/** The working-tree status `git stash pop/apply` prints, compacted as `git status` is. */
function flushStatus(input: FilterInput, status: readonly Line[], kept: Line[], recall: RecallRef): void {
  const statusInput: FilterInput = { argv: ["git", "status"], toolIndex: 0, subIndex: 1, route: input.route };
  const run = gitStatus.start(statusInput, { recall, emit: { out() {}, err() {} } });
  for (const l of status) run.line(l.stream, l.text);
  const out = run.end(0);
  if (!out) {
    kept.push(...status.filter((l) => !chatter(l.text)));
    return;
  }
  for (const text of out.stdout.split("\n").filter(Boolean)) kept.push({ stream: "out", text });
  for (const text of out.stderr.split("\n").filter(Boolean)) kept.push({ stream: "err", text });
}

/** The summary line; each of its lists is whole while it fits in `chars`. */
function summaryLine(s: Summary, recall: RecallRef, chars: number): string | null {
  const parts: string[] = [];
  for (const r of s.remotes) {
    if (!r.refs.length) {
      parts.push(r.where);
      continue;
    }
    const { shown, more } = fitting(r.refs, chars);
    parts.push(`${r.where}: ${shown.join(", ")}${more ? ` ${omitted(more, "refs", recall)}` : ""}`);
  }
  if (s.tracking.length) parts.push(s.tracking.join(", "));
  if (s.head !== null || s.files !== null || s.paths.size) {
    let text = s.head ?? "";
    if (s.files !== null) text += `${text ? " — " : ""}${changeSummary(s.files, s.insertions, s.deletions)}`;
    if (s.paths.size) {
      const entries = [...s.paths].map(([p, notes]) => (notes.length ? `${p} (${notes.join(", ")})` : p));
      const { shown, more } = fitting(entries, chars);
      text += `${text ? ": " : ""}${shown.join(", ")}${more ? ` ${omitted(more, "paths", recall)}` : ""}`;
    }
    parts.push(text);
  }
  for (const [what, paths] of [["add", s.added], ["remove", s.removed]] as const) {
    if (!paths.length) continue;
    const { shown, more } = fitting(paths, chars);
    parts.push(`${what} (${paths.length}): ${shown.join(", ")}${more ? ` ${omitted(more, "paths", recall)}` : ""}`);
  }
  return parts.length ? parts.join("; ") : null;
}
