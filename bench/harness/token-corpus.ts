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
  for (const args of [
    ["log", "-n", "40"],
    ["log", "--stat", "-n", "20"],
    ["log", "-p", "-n", "8"],
    ["log", "--oneline", "-n", "300"],
    ["show", "HEAD~3"],
    ["diff", "HEAD~5", "--stat"],
    ["ls-files"],
    ["branch", "-a", "-v"],
  ]) {
    const text = git(...args);
    if (text) texts.push({ name: `git ${args.join(" ")}`, text });
  }
  const src: string[] = [];
  walk(join(root, "src", "filters", "git"), src);
  walk(join(root, "src", "runtime"), src);
  for (const f of [...src, join(root, "README.md"), join(root, "package.json")]) texts.push({ name: `cat ${f.slice(root.length + 1)}`, text: readFileSync(f, "utf8") });
  return texts;
}
