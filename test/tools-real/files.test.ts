// Files and searches: ls, find, grep, rg, tree, cat on real folders.
import { LIST_BUDGET, linesOf, linesMatching, matrix, type Case, type Fact, type Raw } from "./harness.js";

/** A folder of `n` files (and a few folders). */
function many(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= n; i++) files[`file_number_${i}.txt`] = "";
  for (const d of ["alpha", "beta"]) files[`${d}/inner_${d}.txt`] = "x\n";
  return files;
}

const FIVE = { "README.md": "# app\n", "package.json": "{}\n", "src/index.ts": "export {};\n", "src/util.ts": "export const x = 1;\n", "tsconfig.json": "{}\n" };

/** Every name ls, find or tree printed (the last word of a long line, without tree's art). */
function names(raw: Raw): Fact[] {
  return linesOf(raw.stdout)
    .map((l) =>
      l
        .replace(/^[│├└─\s]+/, "")
        .replace(/^.* \d{1,2}:\d{2} /, "")
        .trim(),
    )
    .filter((l) => l && !/^total \d+$/.test(l) && !/^\d+ director(y|ies), \d+ files?$/.test(l) && !l.endsWith(":"))
    .map((l) => ({ kind: "entry", text: l }))
    .concat(linesOf(raw.stderr).map((l) => ({ kind: "error", text: l })));
}

/** A path find printed: in view as it is, or as a name after its folder's heading (`src/ index.ts util.ts`). */
function pathFact(path: string): Fact {
  const p = path.replace(/^\.\//, "");
  const slash = p.lastIndexOf("/");
  const dir = slash < 0 ? null : p.slice(0, slash + 1);
  const name = p.slice(slash + 1);
  return {
    kind: "path",
    text: p,
    in: (t) =>
      linesOf(t).some((line) => {
        const l = line.trim().replace(/^\.\//, "");
        return l === p || l === p + "/" || (dir !== null && l.startsWith(dir + " ") && l.slice(dir.length).trim().split(/\s+/).includes(name));
      }),
  };
}

const findFacts = (raw: Raw): Fact[] => [...linesOf(raw.stdout).map(pathFact), ...linesOf(raw.stderr).map((l) => ({ kind: "error", text: l }))];

/** A match grep or rg printed (`file:line:text`): in view as it is, or as `line:text` under its file's heading. */
function matchFact(line: string): Fact {
  const m = /^(.+?):(\d+):(.*)$/.exec(line);
  if (!m) return { kind: "error", text: line };
  const [, file, n, text] = m;
  return {
    kind: "match",
    text: line,
    in: (t) => {
      const lines = linesOf(t);
      if (lines.includes(line)) return true;
      let inFile = false;
      for (const l of lines) {
        if (!/^\s/.test(l)) inFile = l === file;
        else if (inFile && l.trim() === `${n}:${text!.trim()}`) return true;
      }
      return false;
    },
  };
}

const matchFacts = (raw: Raw): Fact[] => linesOf(raw.stdout + raw.stderr).map(matchFact);

/** tree's entries: each name, with the art before it gone. */
const treeFacts = (raw: Raw): Fact[] =>
  linesOf(raw.stdout + raw.stderr)
    .map((l) => l.replace(/^[│├└─\s]+/, "").trim())
    .filter((l) => l && l !== ".")
    .map((l) => ({ kind: "entry", text: l }));
const TREE_RESHAPED = [/^[│├└\s]*[├└]── /, /^\.$/];

/** Past the budget, a list's entries are counted by its marker. */
const LISTED = [/./];

const ls: Case[] = [
  { tool: "ls", kind: "passing", argv: ["ls"], files: FIVE, exit: 0, facts: names },
  // Five entries (., .. and three files; .. is the project, which nothing changes between the runs): printed as ls printed them.
  {
    tool: "ls",
    kind: "passing -la",
    argv: ["ls", "-la", "src"],
    files: { ...FIVE, "src/types.ts": "export type T = 1;\n" },
    exit: 0,
    facts: names,
    identical: true,
    reshaped: [/^[-dl][-rwxsStT]{9}/, /^total \d+$/],
  },
  { tool: "ls", kind: "many", argv: ["ls"], files: many(1500), exit: 0, facts: names, within: LIST_BUDGET, counted: LISTED },
  { tool: "ls", kind: "many -1", argv: ["ls", "-1"], files: many(1500), exit: 0, facts: names, within: LIST_BUDGET, counted: LISTED },
  { tool: "ls", kind: "many -a", argv: ["ls", "-a"], files: many(1500), exit: 0, facts: names, within: LIST_BUDGET, counted: LISTED },
  { tool: "ls", kind: "many -R", argv: ["ls", "-R"], files: many(1500), exit: 0, facts: names, within: LIST_BUDGET, counted: LISTED },
  { tool: "ls", kind: "many -l", argv: ["ls", "-l"], files: many(1500), exit: 0, facts: names, within: LIST_BUDGET, counted: LISTED, reshaped: [/^[-dl][-rwxsStT]{9}/, /^total \d+$/] },
  { tool: "ls", kind: "failing", argv: ["ls", "no-such-folder"], files: FIVE, exit: "nonzero", facts: names },
  { tool: "ls", kind: "silent", argv: ["ls"], files: {}, exit: 0, facts: names },
];

const FIND_RESHAPED = [/^\.\/\S/];
const find: Case[] = [
  { tool: "find", kind: "passing", argv: ["find", "."], files: FIVE, exit: 0, facts: findFacts, reshaped: FIND_RESHAPED },
  { tool: "find", kind: "many", argv: ["find", "."], files: many(1500), exit: 0, facts: findFacts, within: LIST_BUDGET, counted: LISTED, reshaped: FIND_RESHAPED },
  { tool: "find", kind: "failing", argv: ["find", "no-such-folder"], files: FIVE, exit: "nonzero", facts: findFacts },
  { tool: "find", kind: "silent", argv: ["find", ".", "-name", "*.nothing"], files: FIVE, exit: 0, facts: findFacts },
];

const SOURCE: Record<string, string> = {};
for (let f = 1; f <= 12; f++) {
  SOURCE[`src/module_${f}.ts`] =
    Array.from({ length: 30 }, (_, i) => (i % 7 === 3 ? `export function handle${f}_${i}(req: Request) { return fetchUser(req.id); }` : `const value${i} = ${i};`)).join("\n") + "\n";
}

const MATCH_RESHAPED = [/^\S+:\d+:/];
const search = (tool: string, argv: string[]): Case[] => [
  { tool, kind: "passing", argv: [...argv, "fetchUser", "src"], files: SOURCE, exit: 0, facts: matchFacts, reshaped: MATCH_RESHAPED, unordered: true },
  { tool, kind: "failing", argv: [...argv, "noSuchNameAnywhere", "src"], files: SOURCE, exit: "nonzero", facts: matchFacts },
  { tool, kind: "crash", argv: [...argv, "fetchUser", "no-such-folder"], files: SOURCE, exit: "nonzero", facts: matchFacts },
];

const tree: Case[] = [
  { tool: "tree", kind: "passing", argv: ["tree"], ranAs: ["tree", "-F"], files: FIVE, exit: 0, facts: treeFacts, reshaped: TREE_RESHAPED },
  { tool: "tree", kind: "many", argv: ["tree"], ranAs: ["tree", "-F"], files: many(1500), exit: 0, facts: treeFacts, within: LIST_BUDGET, counted: LISTED, reshaped: TREE_RESHAPED },
  { tool: "tree", kind: "failing", argv: ["tree", "no-such-folder"], files: FIVE, exit: "nonzero", facts: treeFacts },
];

const LOG = Array.from({ length: 3000 }, (_, i) => `2026-01-02 03:04:${String(i % 60).padStart(2, "0")} INFO request ${i} served in ${i % 97} ms`).join("\n") + "\n";
const cat: Case[] = [
  { tool: "cat", kind: "passing", argv: ["cat", "README.md"], files: FIVE, exit: 0, facts: linesMatching(/\S/, "content") },
  { tool: "cat", kind: "large", argv: ["cat", "app.log"], files: { "app.log": LOG }, exit: 0, facts: linesMatching(/\S/, "content") },
  { tool: "cat", kind: "failing", argv: ["cat", "no-such-file"], files: FIVE, exit: "nonzero", facts: linesMatching(/\S/, "error") },
];

matrix("files", [...ls, ...find, ...search("grep", ["grep", "-rn"]), ...search("rg", ["rg", "-n"]), ...tree, ...cat]);
