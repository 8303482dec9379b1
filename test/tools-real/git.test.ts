// git on real repositories: status, diff, log, show, commit.
import { linesOf, matrix, type Case, type Fact, type Raw } from "./harness.js";

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from} of the file, long enough to read as code`).join("\n") + "\n";
const edited = (n: number, at: number[]) =>
  Array.from({ length: n }, (_, i) => (at.includes(i + 1) ? `line ${i + 1} changed by the matrix` : `line ${i + 1} of the file, long enough to read as code`)).join("\n") + "\n";

/** A repository with one commit of a.txt and b.txt, then edits made after it. */
const REPO = [
  ["git", "init", "-q", "-b", "main", "."],
  ["git", "add", "."],
  ["git", "commit", "-q", "-m", "First commit"],
];
const edit = (path: string, text: string) => ["sh", "-c", `printf '%s' "$1" > "$2"`, "sh", text, path];

function statusFacts(raw: Raw): Fact[] {
  const facts: Fact[] = [];
  for (const l of linesOf(raw.stdout + raw.stderr)) {
    const m = /^\t(?:(modified|new file|deleted|renamed):\s+)?(.+)$/.exec(l);
    if (m) facts.push({ kind: "path", text: m[2]! });
    const b = /^On branch (\S+)/.exec(l);
    if (b) facts.push({ kind: "branch", text: b[1]! });
    if (/^fatal: /.test(l)) facts.push({ kind: "error", text: l });
  }
  return facts;
}

const STATUS_NOISE = [
  /^\s+\(use "git .*\)$/,
  /^\s*$/,
  /^(Changes not staged for commit|Changes to be committed|Untracked files):$/,
  /^no changes added to commit/,
  /^nothing (added )?to commit/,
  /^On branch /,
];
/** git status's state words, which the compact form says as letters. */
const STATUS_RESHAPED = [/^\t(modified|new file|deleted|renamed):/];

function diffFacts(raw: Raw): Fact[] {
  const facts: Fact[] = [];
  for (const l of linesOf(raw.stdout + raw.stderr)) {
    if (/^@@ /.test(l)) facts.push({ kind: "hunk", text: l });
    else if (/^[-+](?![-+]{2} )/.test(l)) facts.push({ kind: "change", text: l });
    const f = /^diff --git a\/(\S+) /.exec(l);
    if (f) facts.push({ kind: "file", text: f[1]! });
    if (/^fatal: /.test(l)) facts.push({ kind: "error", text: l });
  }
  return facts;
}
/** A patch's file header lines, which the compact form says as one `M path` line. */
/** The files a patch names: the compact form's summary counts them. */
const diffCounts = (raw: Raw): string[] => {
  const n = raw.stdout.match(/^diff --git /gm)?.length ?? 0;
  return [`${n} file`];
};
const DIFF_RESHAPED = [/^diff --git /, /^index [0-9a-f]+\.\.[0-9a-f]+/, /^(---|\+\+\+) [ab\/]/, /^new file mode /];

function logFacts(raw: Raw): Fact[] {
  const facts: Fact[] = [];
  for (const l of linesOf(raw.stdout + raw.stderr)) {
    const c = /^commit ([0-9a-f]{40})/.exec(l);
    if (c) facts.push({ kind: "hash", text: c[1]!.slice(0, 7) });
    if (/^ {4}\S/.test(l)) facts.push({ kind: "subject", text: l.trim() });
    const a = /^Author: (.+?) </.exec(l);
    if (a) facts.push({ kind: "author", text: a[1]! });
    if (/^fatal: /.test(l)) facts.push({ kind: "error", text: l });
  }
  return facts;
}
const LOG_RESHAPED = [/^commit [0-9a-f]{40}/, /^Author: /, /^Date: /];

const FILES = { "a.txt": lines(40), "b.txt": lines(12) };

/** A commit's branch, hash and subject, and its counts: files changed, lines inserted (`+N`) and deleted (`-N`). */
function commitFacts(raw: Raw): Fact[] {
  const facts: Fact[] = [];
  for (const l of linesOf(raw.stdout)) {
    const head = /^\[(\S+) ([0-9a-f]+)\] (.*)$/.exec(l);
    if (head) facts.push({ kind: "commit", text: `[${head[1]} ${head[2]}] ${head[3]}` });
    const n = /^ (\d+ files? changed)(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?/.exec(l);
    if (n) {
      facts.push({ kind: "count", text: n[1]! });
      if (n[2]) facts.push({ kind: "count", text: `+${n[2]}`, in: (t) => new RegExp(`(^|\\s)\\+${n[2]}\\b`).test(t) });
      if (n[3]) facts.push({ kind: "count", text: `-${n[3]}`, in: (t) => new RegExp(`(^|\\s)-${n[3]}\\b`).test(t) });
    }
  }
  return facts;
}

const status: Case[] = [
  {
    tool: "git status",
    kind: "passing",
    argv: ["git", "status"],
    files: FILES,
    setup: [...REPO, edit("a.txt", edited(40, [5])), edit("c.txt", "new\n"), ["git", "rm", "-q", "b.txt"]],
    exit: 0,
    facts: statusFacts,
    noise: STATUS_NOISE,
    reshaped: STATUS_RESHAPED,
  },
  { tool: "git status", kind: "silent", argv: ["git", "status"], files: FILES, setup: REPO, exit: 0, facts: statusFacts, noise: STATUS_NOISE },
  { tool: "git status", kind: "crash", argv: ["git", "status"], files: FILES, exit: "nonzero", facts: statusFacts, env: { GIT_CEILING_DIRECTORIES: "/" } },
];

const diff: Case[] = [
  {
    tool: "git diff",
    kind: "passing",
    argv: ["git", "diff"],
    files: FILES,
    setup: [...REPO, edit("a.txt", edited(40, [5, 20, 36])), edit("b.txt", edited(12, [12]))],
    exit: 0,
    facts: diffFacts,
    reshaped: DIFF_RESHAPED,
    counts: diffCounts,
  },
  { tool: "git diff", kind: "silent", argv: ["git", "diff"], files: FILES, setup: REPO, exit: 0, facts: diffFacts },
  { tool: "git diff", kind: "failing", argv: ["git", "diff", "no-such-revision"], files: FILES, setup: REPO, exit: "nonzero", facts: diffFacts },
];

const history = [
  ...REPO,
  edit("a.txt", edited(40, [3])),
  ["git", "commit", "-q", "-am", "Change line three"],
  edit("b.txt", edited(12, [1])),
  ["git", "commit", "-q", "-am", "Change the first line of b"],
];

const log: Case[] = [
  { tool: "git log", kind: "passing", argv: ["git", "log"], files: FILES, setup: history, exit: 0, facts: logFacts, noise: [/^\s*$/], reshaped: LOG_RESHAPED },
  { tool: "git log", kind: "failing", argv: ["git", "log", "no-such-revision"], files: FILES, setup: REPO, exit: "nonzero", facts: logFacts },
  {
    tool: "git show",
    kind: "passing",
    argv: ["git", "show"],
    files: FILES,
    setup: history,
    exit: 0,
    facts: (raw) => [...logFacts(raw), ...diffFacts(raw)],
    noise: [/^\s*$/],
    reshaped: [...LOG_RESHAPED, ...DIFF_RESHAPED],
    counts: diffCounts,
  },
  { tool: "git show", kind: "failing", argv: ["git", "show", "no-such-revision"], files: FILES, setup: REPO, exit: "nonzero", facts: logFacts },
];

const commit: Case[] = [
  {
    tool: "git commit",
    kind: "passing",
    argv: ["git", "commit", "-am", "Edit a"],
    files: FILES,
    setup: [...REPO, edit("a.txt", edited(40, [7]))],
    before: [["sh", "-c", "git reset -q --soft HEAD@{1} 2>/dev/null || true"]],
    exit: 0,
    facts: commitFacts,
    noise: [/^\s*$/],
    reshaped: [/^ \d+ files? changed/],
  },
  { tool: "git commit", kind: "failing", argv: ["git", "commit", "-m", "Nothing"], files: FILES, setup: REPO, exit: "nonzero", facts: () => [], noise: [/^\s*$/, /^On branch /, /^nothing to commit/] },
];

matrix("git", [...status, ...diff, ...log, ...commit]);
