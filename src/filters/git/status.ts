// `git status` (long format): the branch and its upstream, any operation in
// progress, and every staged, unstaged, conflicted and untracked path with its
// state. Hint lines and blank lines go. Anything not recognised is kept as it is.
import { omitted, type Filter, type FilterRun, type RecallRef } from "../types.js";

const MAX_PER_GROUP = 40;

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
  "modified": "",
  "new file": "new",
  "deleted": "deleted",
  "renamed": "renamed",
  "copied": "copied",
  "typechange": "typechange",
  "both modified": "",
  "both added": "both added",
  "both deleted": "both deleted",
  "added by us": "added by us",
  "added by them": "added by them",
  "deleted by us": "deleted by us",
  "deleted by them": "deleted by them",
};

/** Options whose output is not the long format: it is passed through as it is. */
const OTHER_FORMATS = /^(-s|--short|--porcelain(=.*)?|-z|--null|--column(=.*)?|-[a-zA-Z]*s[a-zA-Z]*)$/;

export const gitStatus: Filter = {
  id: "git.status",
  start(input, { recall }): FilterRun {
    const args = input.argv.slice(input.toolIndex + 1);
    const passThrough = args.some((a) => OTHER_FORMATS.test(a));
    let branchLine: string | null = null;
    const state: string[] = [];
    const groups = new Map<Group, string[]>();
    let section: Group | null = null;
    let recognised = false;
    let clean = false;
    const err: string[] = [];
    return {
      line(stream, text) {
        if (passThrough) return;
        if (stream === "err") {
          err.push(text);
          return;
        }
        const t = text.trimEnd();
        if (t === "") return;
        if (/^\s+\(.*\)$/.test(t) || /^\s*\(use "git /.test(t)) return; // hints
        if (SECTIONS[t]) {
          section = SECTIONS[t]!;
          recognised = true;
          return;
        }
        const branch = /^On branch (.+)$/.exec(t);
        if (branch) {
          branchLine = `* ${branch[1]}`;
          recognised = true;
          return;
        }
        const upstream = upstreamOf(t);
        if (upstream !== null) {
          branchLine = (branchLine ?? "*") + upstream;
          return;
        }
        if (/^and have \d+ and \d+ different commits each, respectively\.$/.test(t)) {
          const m = /(\d+) and (\d+)/.exec(t)!;
          branchLine = (branchLine ?? "*") + ` [ahead ${m[1]}, behind ${m[2]}]`;
          return;
        }
        if (/^nothing to commit, working tree clean$/.test(t)) {
          clean = true;
          recognised = true;
          return;
        }
        if (/^(no changes added to commit|nothing added to commit but untracked files present)/.test(t)) return;
        if (section && text.startsWith("\t")) {
          groups.set(section, [...(groups.get(section) ?? []), entry(section, text.slice(1))]);
          return;
        }
        // Anything else is a fact about the state (detached HEAD, a rebase in progress, …): kept.
        section = null;
        state.push(t);
      },
      end() {
        if (passThrough || !recognised) return null;
        const out: string[] = [];
        if (branchLine) out.push(branchLine);
        out.push(...state);
        for (const g of ["conflicts", "staged", "unstaged", "untracked", "ignored"] as Group[]) {
          const items = groups.get(g);
          if (items?.length) out.push(groupLine(g, items, recall));
        }
        if (clean) out.push("clean");
        return { stdout: out.join("\n") + "\n", stderr: err.length ? err.join("\n") + "\n" : "" };
      },
    };
  },
};

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

/** One path line of a section: `modified:   a.txt` → `a.txt`, `new file:   b` → `b (new)`. */
function entry(section: Group, line: string): string {
  if (section === "untracked" || section === "ignored") return line;
  const m = /^([a-z ]+):\s+(.*)$/.exec(line);
  if (!m || !(m[1]! in STATES)) return line;
  const state = STATES[m[1]!]!;
  const path = m[2]!;
  return state ? `${path} (${state})` : path;
}

function groupLine(g: Group, items: string[], recall: RecallRef): string {
  const shown = items.length > MAX_PER_GROUP ? items.slice(0, MAX_PER_GROUP) : items;
  const more = items.length - shown.length;
  return `${GROUP_TITLE[g]} (${items.length}): ${shown.join(", ")}${more ? ` ${omitted(more, g === "untracked" ? "untracked paths" : "paths", recall)}` : ""}`;
}
