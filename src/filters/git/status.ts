// `git status` (long format): the branch and its upstream, any operation in
// progress, and every staged, unstaged, conflicted and untracked path with its
// state, one line per group: `~ modified (2): a.ts src/b.ts` (paths apart by a
// space: git quotes a path that holds one; a state other than the usual one
// follows its path in parentheses). Hint lines and blank lines go. Anything
// not recognised is kept as it is. Every path is shown while the whole fits
// the list budget (`[limits] list_tokens`); past it, each group shows as many
// paths as fit with one cap for all, the rest of it counted with a recall handle.
import { largestFit, limitsOf } from "../budget.js";
import { omitted, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun, type RecallRef } from "../types.js";
import { HELD_BYTES, subcommandArgs } from "./shared.js";

/** What a `… +N more paths [rtk recall id]` marker costs, about. */
const MARKER_COST = 44;

type Group = "staged" | "unstaged" | "conflicts" | "untracked" | "ignored";

const SECTIONS: Record<string, Group> = {
  "Changes to be committed:": "staged",
  "Changes not staged for commit:": "unstaged",
  "Unmerged paths:": "conflicts",
  "Untracked files:": "untracked",
  "Ignored files:": "ignored",
};

const GROUP_TITLE: Record<Group, string> = {
  staged: "+ staged",
  unstaged: "~ modified",
  conflicts: "! conflicts",
  untracked: "? untracked",
  ignored: "- ignored",
};

/** The state word git prints before a path, and how it reads in the compact form ("" for the usual one). */
const STATES: Record<string, string> = {
  modified: "",
  "new file": "new",
  deleted: "deleted",
  renamed: "renamed",
  copied: "copied",
  typechange: "typechange",
  "both modified": "",
  "both added": "both added",
  "both deleted": "both deleted",
  "added by us": "added by us",
  "added by them": "added by them",
  "deleted by us": "deleted by us",
  "deleted by them": "deleted by them",
};

/** Options whose output is not the long format alone (`-v` adds the patch): it is passed through as it is. */
const OTHER_FORMATS = /^(-s|--short|--porcelain(=.*)?|-z|--null|--column(=.*)?|-[a-zA-Z]*[sv][a-zA-Z]*|--verbose)$/;

export const gitStatus: Filter = {
  id: "git.status",
  lineForm: () => "text",
  start: (input, ctx) => new GitStatusRun(input, ctx),
};

type Paths = { shown: string[]; count: number };

class GitStatusRun implements FilterRun {
  private readonly passThrough: boolean;
  private branchLine: string | null = null;
  private readonly state: string[] = [];
  /** Only the shown entries of a group are held; the rest are counted. */
  private readonly groups = new Map<Group, Paths>();
  private section: Group | null = null;
  private recognised = false;
  private clean = false;
  private readonly err: string[] = [];
  /** Other lines (state, `-v` patches, stderr) are held up to a budget; past it they are counted. */
  private heldBytes = 0;
  private over = 0;

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    const { args } = subcommandArgs(input);
    this.passThrough = args.some((a) => OTHER_FORMATS.test(a));
  }

  line(stream: "out" | "err", text: string): void {
    if (this.passThrough) return;
    if (stream === "err") return this.hold(this.err, text);
    const t = text.trimEnd();
    if (t === "") return;
    // Hints are indented with spaces (paths with a tab: a file may be called `(x)`).
    if (/^ +\(.*\)$/.test(t) || /^\(use "git /.test(t)) return;
    if (this.sentence(t)) return;
    if (this.section && text.startsWith("\t")) return this.path(this.section, text.slice(1));
    // Anything else is a fact about the state (detached HEAD, a rebase in progress, …): kept.
    this.section = null;
    this.hold(this.state, t);
  }

  end(): CompactOutput | null {
    if (this.passThrough || !this.recognised) return null;
    const { recall } = this.ctx;
    const out: string[] = [];
    if (this.branchLine) out.push(this.branchLine);
    out.push(...this.state);
    const order = (["conflicts", "staged", "unstaged", "untracked", "ignored"] as Group[]).filter((g) => this.groups.get(g)?.count);
    const budget = limitsOf(this.ctx).list - out.reduce((n, l) => n + l.length + 1, 0);
    const perGroup = this.pathsPerGroup(order, budget);
    for (const g of order) out.push(groupLine(g, this.groups.get(g)!, perGroup, recall));
    if (this.clean) out.push("clean");
    if (this.over) out.push(omitted(this.over, "lines", recall));
    return { stdout: out.join("\n") + "\n", stderr: this.err.length ? this.err.join("\n") + "\n" : "" };
  }

  private hold(into: string[], line: string): void {
    if (this.heldBytes > HELD_BYTES) this.over++;
    else into.push(line);
    this.heldBytes += line.length + 1;
  }

  /** One of git's own sentences (a section title, the branch, its upstream, a clean tree), read; false for any other line. */
  private sentence(t: string): boolean {
    if (SECTIONS[t]) {
      this.section = SECTIONS[t]!;
      this.recognised = true;
      return true;
    }
    const branch = /^On branch (.+)$/.exec(t);
    if (branch) {
      this.branchLine = `* ${branch[1]}`;
      this.recognised = true;
      return true;
    }
    const upstream = upstreamOf(t);
    if (upstream !== null) {
      this.branchLine = (this.branchLine ?? "*") + upstream;
      return true;
    }
    if (/^and have \d+ and \d+ different commits each, respectively\.$/.test(t)) {
      const m = /(\d+) and (\d+)/.exec(t)!;
      this.branchLine = (this.branchLine ?? "*") + ` [ahead ${m[1]}, behind ${m[2]}]`;
      return true;
    }
    if (/^nothing to commit, working tree clean$/.test(t)) {
      this.clean = true;
      this.recognised = true;
      return true;
    }
    return /^(no changes added to commit|nothing added to commit but untracked files present)/.test(t);
  }

  private path(section: Group, line: string): void {
    const g = this.groups.get(section) ?? { shown: [], count: 0 };
    // Paths are held within the memory bound; past it they are counted.
    if (this.heldBytes <= HELD_BYTES) {
      const e = entry(section, line);
      g.shown.push(e);
      this.heldBytes += e.length + 1;
    }
    g.count++;
    this.groups.set(section, g);
  }

  /** Every path of each group while they all fit `budget`; else the largest cap for all groups that fits (one at least). */
  private pathsPerGroup(order: readonly Group[], budget: number): number {
    const lengths = order.map((g) => this.groups.get(g)!.shown.map((p) => p.length + 1));
    const longest = Math.max(0, ...lengths.map((l) => l.length));
    // The cost of the group lines with at most k paths each.
    const cost = (k: number) =>
      order.reduce((n, g, i) => {
        const shown = lengths[i]!.slice(0, k);
        return n + GROUP_TITLE[g].length + 10 + shown.reduce((a, b) => a + b, 0) + (shown.length < this.groups.get(g)!.count ? MARKER_COST : 0);
      }, 0);
    return cost(longest) <= budget ? longest : Math.max(1, largestFit(longest, budget, cost));
  }
}

/** The upstream part of the branch line, from git's "Your branch …" sentence, or null. */
function upstreamOf(t: string): string | null {
  let m = /^Your branch is up to date with '(.+)'\.$/.exec(t);
  if (m) return `...${m[1]}`;
  m = /^Your branch is ahead of '(.+)' by (\d+) commits?\.$/.exec(t);
  if (m) return `...${m[1]} [ahead ${m[2]}]`;
  m = /^Your branch is behind '(.+)' by (\d+) commits?, and can be fast-forwarded\.$/.exec(t);
  if (m) return `...${m[1]} [behind ${m[2]}]`;
  m = /^Your branch and '(.+)' have diverged,$/.exec(t);
  if (m) return `...${m[1]}`;
  m = /^Your branch is based on '(.+)', but the upstream is gone\.$/.exec(t);
  if (m) return `...${m[1]} [gone]`;
  return null;
}

/**
 * Where git starts a path after its state label: the widest label of the
 * section and a space (`typechange:`, `deleted by them:`), so a path's own
 * leading spaces are the ones past that column.
 */
const PATH_COLUMN: Partial<Record<Group, number>> = { staged: 12, unstaged: 12, conflicts: 17 };

/** What git says of a submodule after its path: `(new commits, modified content)`. */
const SUBMODULE_NOTE = / \(((?:new commits|modified content|untracked content)(?:, (?:new commits|modified content|untracked content))*)\)$/;

/** One path line of a section: `modified:   a.txt` → `a.txt`, `new file:   b` → `b (new)`. */
function entry(section: Group, line: string): string {
  if (section === "untracked" || section === "ignored") return quoted(line);
  const m = /^([a-z ]+):( +)/.exec(line);
  if (!m || !(m[1]! in STATES)) return quoted(line);
  const column = PATH_COLUMN[section] ?? 0;
  let rest = m[0].length > column && column > m[1]!.length + 1 ? line.slice(column) : line.slice(m[0].length);
  const states = STATES[m[1]!] ? [STATES[m[1]!]!] : [];
  const note = SUBMODULE_NOTE.exec(rest);
  if (note) {
    rest = rest.slice(0, note.index);
    states.push(note[1]!);
  }
  // Only a rename or a copy names two paths; any other path holding ` -> ` is one name.
  const path = m[1] === "renamed" || m[1] === "copied" ? rest.split(" -> ").map(quoted).join(" -> ") : quoted(rest);
  return states.length ? `${path} (${states.join(", ")})` : path;
}

/** A path that holds whitespace or ` -> `, quoted as git quotes paths (it leaves these bare in this format). */
function quoted(path: string): string {
  if (!/\s/.test(path) || /^"(?:[^"\\]|\\.)*"$/.test(path)) return path;
  return `"${path.replace(/["\\]/g, "\\$&")}"`;
}

function groupLine(g: Group, items: Paths, max: number, recall: RecallRef): string {
  const shown = items.shown.slice(0, max);
  const more = items.count - shown.length;
  return `${GROUP_TITLE[g]} (${items.count}): ${shown.join(" ")}${more ? ` ${omitted(more, g === "untracked" ? "untracked paths" : "paths", recall)}` : ""}`;
}
