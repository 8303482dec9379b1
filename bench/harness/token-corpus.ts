// The texts the token estimate is fitted on and measured against: every tool
// fixture's stdout and stderr, and real git and file outputs made on the spot
// (this checkout's log, patches, status and source files, as `git …` and
// `cat` print them).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { root } from "./context.js";

export interface TokenText {
  name: string;
  text: string;
}

function walk(dir: string, out: string[]): void {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
}

/** The commit whose log, patches and files are read (any commit on main will do; changing it moves the measured error). */
const CORPUS_COMMIT = "4128a7ac3da0f08695c2c6559c901c9b0319e7e7";

export function tokenCorpus(): TokenText[] {
  const texts: TokenText[] = [];
  const files: string[] = [];
  walk(join(root, "test", "fixtures", "tools"), files);
  for (const f of files) {
    if (!/[\\/](stdout|stderr)$/.test(f)) continue;
    const text = readFileSync(f, "utf8");
    if (text) texts.push({ name: f.slice(root.length + 1), text });
  }
  const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }).stdout ?? "";
  // One fixed commit, so that the corpus (and the error measured on it) does not move with
  // every commit; HEAD where the clone does not hold it (a shallow clone).
  const at = git("cat-file", "-t", CORPUS_COMMIT).trim() === "commit" ? CORPUS_COMMIT : "HEAD";
  for (const args of [
    ["log", "-n", "40", at],
    ["log", "--stat", "-n", "20", at],
    ["log", "-p", "-n", "8", at],
    ["log", "--oneline", "-n", "300", at],
    ["show", `${at}~3`],
    ["diff", `${at}~5`, at, "--stat"],
    ["ls-tree", "-r", "--name-only", at],
    ["log", "--graph", "--oneline", "-n", "100", at],
  ]) {
    const text = git(...args);
    if (text) texts.push({ name: `git ${args.join(" ")}`, text });
  }
  const paths = git("ls-tree", "-r", "--name-only", at, "src/filters/git", "src/runtime").split("\n").filter(Boolean);
  for (const f of [...paths, "README.md", "package.json"]) texts.push({ name: `cat ${f}`, text: git("show", `${at}:${f}`) });
  return texts;
}
