// What Claude Code (2.1.x, measured on 2.1.332) runs unprompted by itself in
// its default, acceptEdits, plan and dontAsk modes: read-only commands, judged
// part by part, whose paths stay inside the project. This is a narrower reading
// than Claude Code's own (test/hosts-real/ checks it against the program): rtk
// hands a rewrite back allowed only where it is sure Claude Code would run the
// original unprompted, and leaves anything it is not sure of to Claude Code.
//
// It also says where Claude Code asks whatever its allow rules say: a path
// outside the project, or a command shape it does not judge (a subshell, a
// background job, two `cd`s, `cd` with git).
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import type { Part } from "./parts.js";
import type { OwnAllow, OwnJudgement } from "./verdict.js";

/** A flag's value: none (a switch), a number (digits), or any text not starting with `-`. */
type Kind = "none" | "number" | "string";

interface FlagTable {
  [flag: string]: Kind;
}

interface Spec {
  flags: FlagTable;
  /** What its other words are: paths Claude Code checks, anything, or nothing at all. */
  operands: "paths" | "free" | "none";
  /** The first operand is a pattern, not a path (unless a flag gave the pattern). */
  pattern?: { given: readonly string[] };
  /** `--` does not end the flags: words after it are still checked as flags. */
  dashDashChecked?: boolean;
  /** Why an otherwise valid use is asked about (the tool's own unsafe options and values). */
  refuse?(words: readonly string[]): boolean;
  /** Unquoted globs are taken (`cat src/*.js`); elsewhere they make Claude Code ask. */
  globs?: boolean;
  /** Flags are not checked at all (any option is read-only). */
  anyFlags?: boolean;
  /** A short flag may carry its number (`-A2`, `-m1`). */
  attached?: boolean;
}

const flags = (none: string, valued: Record<string, Kind> = {}): FlagTable => ({ ...Object.fromEntries(none.split(" ").map((f) => [f, "none" as Kind])), ...valued });

const GIT_STAT = "--stat --numstat --shortstat --name-only --name-status";
const GIT_COLOR = "--color --no-color";
const GIT_PATCH = "-p --patch --no-patch -s";

/** The options with a value grep and rg share: context lines, the most matches, and a pattern given by option. */
const GREP_VALUED: Readonly<Record<string, Kind>> = {
  "-A": "number",
  "-B": "number",
  "-C": "number",
  "--after-context": "number",
  "--before-context": "number",
  "--context": "number",
  "-m": "number",
  "--max-count": "number",
  "-e": "string",
  "--regexp": "string",
};

/** `--format`/`--pretty` values Claude Code takes: a builtin name, or a format without signature fields. */
const PRETTY_NAMES = new Set(["oneline", "short", "medium", "full", "fuller", "email", "raw"]);

function badFormat(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    for (const name of ["--format", "--pretty"]) {
      const value = w === name ? words[i + 1] : w.startsWith(`${name}=`) ? w.slice(name.length + 1) : undefined;
      if (value === undefined) continue;
      if (/%G|%\(|signature/.test(value)) return true;
      // Anything but a builtin name or an explicit format/tformat is read as one: only those are sure.
      if (!PRETTY_NAMES.has(value) && !value.includes("%") && !/^t?format:/.test(value)) return true;
    }
    if (/%G|signature/.test(w)) return true;
  }
  return false;
}

/** The read-only commands rtk hands back allowed, by their leading words. */
const SPECS: ReadonlyMap<string, Spec> = new Map<string, Spec>([
  [
    "git status",
    {
      flags: flags("--ahead-behind -b --branch --column --ignored --long --no-ahead-behind --no-column --no-renames --porcelain --renames -s --short -v --verbose", {
        "--untracked-files": "string",
      }),
      operands: "free",
    },
  ],
  [
    "git log",
    {
      flags: flags(
        `${GIT_STAT} ${GIT_COLOR} ${GIT_PATCH} --abbrev-commit --all --ancestry-path --author-date-order --boundary --branches --cherry-mark --cherry-pick --date-order --decorate --dense --first-parent --follow --full-history --graph --left-right --merges --no-decorate --no-ext-diff --no-max-parents --no-merges --no-min-parents --no-walk --oneline --pickaxe-all --pickaxe-regex --relative-date --remotes --reverse --simplify-merges --source --sparse --tags --topo-order --walk-reflogs`,
        {
          "--after": "string",
          "--author": "string",
          "--before": "string",
          "--committer": "string",
          "--date": "string",
          "--diff-filter": "string",
          "--format": "string",
          "-G": "string",
          "--grep": "string",
          "--max-count": "number",
          "-n": "number",
          "--pretty": "string",
          "-S": "string",
          "--since": "string",
          "--skip": "number",
          "--until": "string",
        },
      ),
      operands: "free",
      refuse: badFormat,
    },
  ],
  [
    "git diff",
    {
      flags: flags(
        `${GIT_STAT} ${GIT_COLOR} --binary --cached --check --dirstat --exit-code --find-renames --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines --ignore-space-at-eol --ignore-space-change --minimal --no-ext-diff --no-renames --numstat --patch-with-stat --patience --quiet --staged --summary -p -u -s -R`,
        { "--diff-filter": "string", "--diff-algorithm": "string", "--inter-hunk-context": "number", "--abbrev": "number" },
      ),
      operands: "free",
    },
  ],
  [
    "git show",
    {
      flags: flags(`${GIT_STAT} ${GIT_COLOR} ${GIT_PATCH} --abbrev-commit --decorate --first-parent --graph --no-decorate --no-ext-diff --oneline --quiet --relative-date`, {
        "--date": "string",
        "--diff-filter": "string",
        "--format": "string",
        "--pretty": "string",
      }),
      operands: "free",
      refuse: badFormat,
    },
  ],
  [
    "git branch",
    {
      flags: flags("-a --all --color --no-color --column --no-column -i --ignore-case -l --list --no-abbrev -r --remotes --show-current -v --verbose -vv"),
      // Without a list flag, a name creates a branch.
      operands: "none",
    },
  ],
  ["git stash list", { flags: flags("--oneline --relative-date --decorate --no-decorate", { "--max-count": "number", "-n": "number" }), operands: "none", dashDashChecked: true }],
  ["git stash show", { flags: flags(`${GIT_STAT} ${GIT_COLOR} -p --patch --no-patch -s --no-ext-diff`), operands: "free" }],
  ["ls", { flags: {}, anyFlags: true, operands: "paths", globs: true }],
  ["cat", { flags: {}, anyFlags: true, operands: "paths", globs: true }],
  ["head", { flags: {}, anyFlags: true, operands: "paths", globs: true }],
  ["tail", { flags: {}, anyFlags: true, operands: "paths", globs: true }],
  ["wc", { flags: {}, anyFlags: true, operands: "paths", globs: true }],
  [
    "grep",
    {
      flags: flags(
        "-a -b -c --count -E --extended-regexp -F --fixed-strings -G -H -h -I -i --ignore-case -L -l --files-with-matches --files-without-match -n --line-number -o --only-matching -P -q --quiet -R -r --recursive -s --no-messages -v --invert-match -w --word-regexp -x --line-regexp -Z -z --null --no-filename --with-filename",
        {
          ...GREP_VALUED,
          "--include": "string",
          "--exclude": "string",
          "--exclude-dir": "string",
          "--color": "string",
          "--colour": "string",
        },
      ),
      operands: "paths",
      pattern: { given: ["-e", "--regexp"] },
      globs: true,
      attached: true,
    },
  ],
  [
    "rg",
    {
      flags: flags(
        "-a -c --count --column -F --fixed-strings --follow -H -h --heading --no-heading --hidden -i --ignore-case -v --invert-match --json -L -l --files-with-matches --files-without-match -n --line-number --no-ignore -o --only-matching -q --quiet -S --smart-case --stats --text -u -w --word-regexp",
        {
          ...GREP_VALUED,
          "--max-depth": "number",
          "-g": "string",
          "--glob": "string",
          "-t": "string",
          "--type": "string",
          "-T": "string",
          "--type-not": "string",
        },
      ),
      operands: "paths",
      pattern: { given: ["-e", "--regexp"] },
      attached: true,
    },
  ],
  [
    "tree",
    {
      flags: flags("-a -d -f -i -l -F -C -n -s -h -D -p -u -g -Q -N -r -t -c -U -v --noreport --dirsfirst --gitignore --prune --du --si", {
        "-L": "number",
        "-I": "string",
        "-P": "string",
        "--filelimit": "number",
        "--charset": "string",
      }),
      // Claude Code does not check tree's folders; rtk still keeps them inside the project.
      operands: "paths",
    },
  ],
  ["echo", { flags: {}, anyFlags: true, operands: "free", globs: false }],
  ["pwd", { flags: {}, operands: "none" }],
  ["true", { flags: {}, operands: "none" }],
  ["false", { flags: {}, operands: "none" }],
  [
    "sort",
    {
      flags: flags("-b -d -f -g -h -i -M -n -R -r -s -u -V -z --numeric-sort --reverse --unique --ignore-case --human-numeric-sort --version-sort --stable", {
        "-k": "string",
        "--key": "string",
        "-t": "string",
      }),
      operands: "paths",
    },
  ],
  ["uniq", { flags: flags("-c -d -u -i --count --repeated --unique --ignore-case"), operands: "none" }],
  ["cut", { flags: {}, anyFlags: true, operands: "paths" }],
  ["tr", { flags: {}, anyFlags: true, operands: "free" }],
  ["basename", { flags: {}, anyFlags: true, operands: "free" }],
  ["dirname", { flags: {}, anyFlags: true, operands: "free" }],
  ["nl", { flags: {}, anyFlags: true, operands: "paths" }],
  ["tac", { flags: {}, anyFlags: true, operands: "paths" }],
  ["cd", { flags: {}, operands: "paths" }],
]);

/** Commands whose operands Claude Code checks as paths it reads (and `Read(…)` rules can deny). */
const PATH_READERS = new Set(
  "cd ls find cat head tail sort uniq wc cut paste column tr file stat diff awk gawk mawk nawk strings hexdump od base64 nl tac rev fold expand unexpand fmt comm cmp pr numfmt tsort man grep egrep fgrep rg sed jq sha256sum sha1sum md5sum git".split(
    " ",
  ),
);

/** Whether the command may read a path Claude Code checks (its operands, a `<` redirect); wrappers are looked through. */
export function readsPaths(cmd: A.SimpleCommand): boolean {
  if (cmd.redirects.some((r) => r.op === "<")) return true;
  return cmd.words.some((w) => {
    const v = plain(w);
    return v === null || PATH_READERS.has(v.slice(v.lastIndexOf("/") + 1));
  });
}

/** `find`'s predicates that act (run, delete, write): Claude Code asks about them. */
const FIND_ACTIONS = new Set(["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fls", "-fprintf", "-files0-from", "-rm"]);
/** `find`'s predicates whose value is a file it reads. */
const FIND_FILE_VALUES = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);

export interface ReadOnlyContext {
  /** The shell's folder (the event's `cwd`). */
  cwd: string;
  /** The project's folder (`CLAUDE_PROJECT_DIR`): where reads are allowed. */
  project: string;
}

/** Claude Code's read-only judgement, for one command line. */
export function claudeReadOnly(ctx: ReadOnlyContext): OwnAllow {
  const within = insideCheck(ctx);
  return {
    whole: (script, _src, parts) => shapeVeto(script, parts),
    part: (p) => judgePart(p, ctx, within),
  };
}

/** Why Claude Code asks about the whole command, whatever its rules say. */
function shapeVeto(script: A.Script, parts: readonly Part[]): string | null {
  let why: string | null = null;
  walk(script, (n) => {
    if (why) return;
    if (n.kind === "Stmt" && n.background) why = "a background job";
    else if (n.kind === "Subshell" || n.kind === "Group") why = "a subshell or group";
    else if (n.kind === "TimeClause") why = "a `time` clause";
    else if (n.kind === "For" || n.kind === "ArithFor" || n.kind === "Select" || n.kind === "Case" || n.kind === "FuncDecl" || n.kind === "Coproc" || n.kind === "While" || n.kind === "If")
      why = "a compound command";
    else if (n.kind === "Heredoc" && !n.quoted) why = "a here-document whose body expands";
    else if (n.kind === "Pipeline" && hasHeredoc(n)) why = "a here-document in a pipeline";
    else if (n.kind === "CmdSubst" || n.kind === "ProcSubst") why = "a substitution";
    else if (n.kind === "BraceExp") why = "a brace expansion";
    else if (n.kind === "AnsiCQuoted") why = "a $'…' string";
  });
  if (why) return why;
  const names = parts.map((p) => commandWords(p.cmd)[0] ?? null);
  const cds = names.filter((n) => n === "cd").length;
  if (cds > 1) return "more than one `cd`";
  if (cds === 1 && names.includes("git")) return "`cd` with git";
  return null;
}

function hasHeredoc(node: A.Pipeline): boolean {
  let found = false;
  walk(node, (n) => {
    if (n.kind === "Heredoc") found = true;
  });
  return found;
}

/** The words' literal values, or null where one expands (a variable, a substitution, a glob, a tilde, braces). */
function commandWords(cmd: A.SimpleCommand): (string | null)[] {
  return cmd.words.map((w) => (w.parts.every((p) => p.kind === "Lit" || p.kind === "SingleQuoted" || p.kind === "DoubleQuoted") ? plain(w) : null));
}

function plain(w: A.Word): string | null {
  let out = "";
  for (const p of w.parts) {
    if (p.kind === "Lit" || p.kind === "SingleQuoted") out += p.value;
    else if (p.kind === "DoubleQuoted" && p.parts.every((q) => q.kind === "Lit")) out += p.parts.map((q) => (q as A.Lit).value).join("");
    else return null;
  }
  return out;
}

/** A word that is only literal text and unquoted globs (`src/*.js`): its text, the glob characters kept. */
function globWord(w: A.Word): string | null {
  let out = "";
  for (const p of w.parts) {
    if (p.kind === "Lit" || p.kind === "SingleQuoted") out += p.value;
    else if (p.kind === "Glob") out += (p as { raw?: string }).raw ?? "*";
    else return null;
  }
  return out;
}

function judgePart(p: Part, ctx: ReadOnlyContext, within: (path: string) => boolean): OwnJudgement {
  const cmd = p.cmd;
  // Paths the part reads or writes through redirects: outside the project, Claude Code asks whatever its rules say.
  for (const r of cmd.redirects) {
    const target = plain(r.target);
    if (r.op === "<" && target !== null && !within(target)) return { veto: `reads ${target}, outside the project` };
  }
  const words = commandWords(cmd);
  const outside = words.find((w, i) => w !== null && i > 0 && !w.startsWith("-") && looksLikePath(w) && !within(w));
  if (outside) return { veto: `names ${outside}, outside the project` };
  if (cmd.assigns.length) return null;
  if (!cmd.redirects.every(harmlessRedirect)) return null;
  let start = 0;
  // `timeout 5 …`: the one wrapper Claude Code reads through with no options.
  if (words[0] === "timeout" && words[1] !== null && words[1] !== undefined && /^\d+(\.\d+)?[smhd]?$/.test(words[1])) start = 2;
  const name = words[start];
  if (name === null || name === undefined) return null;
  const key = name === "git" || (name === "git" && words[start + 1] === "stash") ? keyOf(words, start) : name;
  const spec = key === null ? undefined : SPECS.get(key);
  if (!spec || key === null) {
    if (name === "find") return findJudgement(cmd, words.slice(start + 1), within);
    return null;
  }
  const argWords = cmd.words.slice(start + key.split(" ").length);
  const args: string[] = [];
  for (const w of argWords) {
    const v = plain(w) ?? (spec.globs ? globWord(w) : null);
    if (v === null) return null;
    if (v.includes("$") || v.includes("`") || (v.includes("{") && (v.includes(",") || v.includes("..")))) return null;
    args.push(v);
  }
  if ((name === "grep" || name === "rg") && args.some((a) => /[\n\r]/.test(a))) return null;
  const operands = readFlags(args, spec);
  if (operands === null) return null;
  if (spec.refuse?.(args)) return null;
  if (spec.operands === "none" && operands.length) return null;
  if (name === "cd" && operands.length > 1) return null;
  if (spec.operands === "paths") {
    const paths = spec.pattern && !args.some((a) => spec.pattern!.given.some((g) => a === g || a.startsWith(`${g}=`))) ? operands.slice(1) : operands;
    if (!paths.every(within)) return { veto: `reads outside the project` };
  }
  if (name === "git" && !gitAtHome(ctx)) return null;
  return { allow: `read-only (${key})` };
}

/** The table key of a git command: `git status`, `git stash list`; null when an option stands before the subcommand. */
function keyOf(words: readonly (string | null)[], start: number): string | null {
  const sub = words[start + 1];
  if (!sub || sub.startsWith("-")) return null;
  if (sub === "stash") return words[start + 2] === "list" || words[start + 2] === "show" ? `git stash ${words[start + 2]}` : null;
  return `git ${sub}`;
}

/**
 * The operands left once the flags are read by the table, or null when a flag
 * is not one Claude Code takes (an unknown flag, a switch given a value, a value
 * of the wrong kind or missing).
 */
function readFlags(args: readonly string[], spec: Spec): string[] | null {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" && !spec.dashDashChecked) {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === "--") continue;
    if (!/^-[\w-]/.test(a)) {
      operands.push(a);
      continue;
    }
    if (spec.anyFlags) continue;
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(0, eq) : a;
    const kind = Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    if (kind === "none") {
      if (eq > 0) return null;
      continue;
    }
    if (kind !== undefined) {
      const value = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined || (eq < 0 && /^-[\w-]/.test(value)) || !valueOk(kind, value)) return null;
      continue;
    }
    // `git log -5`: a count.
    if (/^-\d+$/.test(a) && spec.flags["-n"] === "number") continue;
    // `grep -A2`, `rg -m1`: a short flag with its number attached.
    const attached = spec.attached ? /^(-[A-Za-z])(\d+)$/.exec(a) : null;
    if (attached && spec.flags[attached[1]!] === "number") continue;
    // `-la`: every letter a switch.
    if (/^-[A-Za-z]{2,}$/.test(a) && [...a.slice(1)].every((c) => spec.flags[`-${c}`] === "none")) continue;
    return null;
  }
  return operands;
}

function valueOk(kind: Kind, value: string): boolean {
  if (kind === "number") return /^\d+$/.test(value);
  return !value.startsWith("-");
}

/** `find`: any predicate but those that act; its starting points and the files its predicates read stay inside the project. */
function findJudgement(cmd: A.SimpleCommand, words: readonly (string | null)[], within: (path: string) => boolean): OwnJudgement {
  if (cmd.words.some((w) => w.parts.some((p) => p.kind === "Glob"))) return null;
  if (words.some((w) => w === null || w.includes("$") || w.includes("`"))) return null;
  const ws = words as string[];
  if (ws.some((w) => FIND_ACTIONS.has(w))) return null;
  let i = 0;
  const starts: string[] = [];
  while (i < ws.length && !ws[i]!.startsWith("-") && ws[i] !== "(" && ws[i] !== "!") starts.push(ws[i++]!);
  for (; i < ws.length; i++) if (FIND_FILE_VALUES.has(ws[i]!) && ws[i + 1] !== undefined && !within(ws[i + 1]!)) return { veto: `reads ${ws[i + 1]}, outside the project` };
  if (!starts.every(within)) return { veto: "searches outside the project" };
  return { allow: "read-only (find)" };
}

const harmlessRedirect = (r: A.Redirect): boolean => {
  const target = plain(r.target);
  if (r.op === ">&" || r.op === "<&") return target !== null && (/^\d+$/.test(target) || target === "-");
  if (r.op === ">" || r.op === ">>" || r.op === "&>" || r.op === "&>>") return target === "/dev/null";
  // `< file` (its path is checked above), here-strings and here-documents (an expanding one makes the whole command asked) read.
  return r.op === "<" || r.op === "<<<" || r.op === "<<" || r.op === "<<-";
};

/** Words Claude Code reads as paths when they are a read-only command's operands. */
function looksLikePath(w: string): boolean {
  return w.startsWith("/") || w.startsWith("~") || w === ".." || w.startsWith("../") || w.includes("/../") || w.endsWith("/..");
}

/**
 * Whether a path stays inside the project: relative or absolute, no `..` step,
 * no `~`, and inside once symlinks are followed (as far as the path exists). A
 * glob is judged by the folder before its first pattern character.
 */
function insideCheck(ctx: ReadOnlyContext): (path: string) => boolean {
  const root = realOr(ctx.project);
  return (path) => {
    if (path === "" || path.startsWith("~") || path.includes("\0")) return false;
    const fixed = path.split(/[*?[]/)[0]!;
    const dir = fixed === path ? path : fixed.slice(0, fixed.lastIndexOf("/") + 1) || ".";
    if (dir.split("/").includes("..")) return false;
    const abs = resolve(ctx.cwd, dir);
    if (!under(abs, resolve(ctx.project)) && !under(abs, root)) return false;
    return under(realNearest(abs), root);
  };
}

function under(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && rel.split(sep)[0] !== "..");
}

function realOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** The real path of `path`, or of its nearest existing folder with the rest appended. */
function realNearest(path: string): string {
  let at = path;
  const rest: string[] = [];
  for (let i = 0; i < 64; i++) {
    try {
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      const up = resolve(at, "..");
      if (up === at) return path;
      rest.push(at.slice(up.length + (up.endsWith(sep) ? 0 : 1)));
      at = up;
    }
  }
  return path;
}

/** Git runs unprompted only in the project's own repository: `.git` a folder at the project root, no bare repository in the shell's folder. */
function gitAtHome(ctx: ReadOnlyContext): boolean {
  const dotGit = statSync(join(ctx.project, ".git"), { throwIfNoEntry: false });
  if (!dotGit?.isDirectory()) return false;
  for (const marker of ["HEAD", "objects", "refs"]) if (statSync(join(ctx.cwd, marker), { throwIfNoEntry: false })) return false;
  // Between the shell's folder and the project, no other repository.
  let at = resolve(ctx.cwd);
  const top = resolve(ctx.project);
  while (at !== top && under(at, top)) {
    if (statSync(join(at, ".git"), { throwIfNoEntry: false })) return false;
    at = resolve(at, "..");
  }
  return at === top;
}
