// Package managers: npm, pnpm and yarn installs on real projects, from the npm
// registry (pnpm and yarn themselves are installed from it into the matrix's
// cache folder, once).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CACHE, matrix, packageFacts, toolEnv, type Case } from "./harness.js";

const MANAGERS = ["pnpm@9.15.9", "yarn@1.22.22"];
if (!existsSync(join(CACHE, "node_modules", ".bin", "pnpm")) || !existsSync(join(CACHE, "node_modules", ".bin", "yarn"))) {
  mkdirSync(CACHE, { recursive: true });
  const r = spawnSync("npm", ["install", "--prefix", CACHE, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", ...MANAGERS], { env: toolEnv(), encoding: "utf8" });
  if (r.status !== 0) process.stdout.write(`packages: could not install ${MANAGERS.join(", ")} into ${CACHE}: ${r.stderr.trim().split("\n").pop()}\n`);
}

/** A dependency with no dependencies of its own, small, and in npm's cache once the repository is installed. */
const DEP = '{ "name": "app", "version": "1.0.0", "private": true, "dependencies": { "mri": "1.2.0" } }\n';
const NONE = '{ "name": "app", "version": "1.0.0", "private": true }\n';
const MISSING = '{ "name": "app", "version": "1.0.0", "private": true, "dependencies": { "rtk-matrix-no-such-package-0f3a": "1.0.0" } }\n';
const BROKEN = '{ "name": "app", "version": "1.0.0",, }\n';
const CLEAN = [["rm", "-rf", "node_modules", "package-lock.json", "pnpm-lock.yaml", "yarn.lock"]];

const manager = (tool: string, argv: string[], noise: RegExp[], extra: Partial<Case> = {}): Case[] => [
  { tool: `${tool} install`, kind: "passing", argv, files: { "package.json": DEP }, before: CLEAN, exit: 0, facts: packageFacts(argv), noise, ...extra },
  { tool: `${tool} install`, kind: "failing", argv, files: { "package.json": MISSING }, before: CLEAN, exit: "nonzero", facts: packageFacts(argv), noise, ...extra },
  { tool: `${tool} install`, kind: "crash", argv, files: { "package.json": BROKEN }, before: CLEAN, exit: "nonzero", facts: packageFacts(argv), noise, ...extra },
  { tool: `${tool} install`, kind: "silent", argv, files: { "package.json": NONE }, before: CLEAN, exit: 0, facts: packageFacts(argv), noise, ...extra },
];

/** npm names its debug log by the time of the run. */
const npm = manager("npm", ["npm", "install", "--prefer-offline"], [/^\s*$/, /^npm (notice|http)/], { volatile: [/_logs\/\S+-debug-\d+\.log/] });
const pnpm = manager("pnpm", ["pnpm", "install"], [/^\s*$/, /^Progress: /, /^Packages: \+\d+$/, /^\++$/, /^Done in /, /^Lockfile is up to date/], {
  volatile: [/^Progress: .*\n/gm],
  // What pnpm added, as one line: `dependencies added: mri 1.2.0`.
  reshaped: [/^(dependencies|devDependencies|optionalDependencies):$/, /^[+-] \S+ \d/],
});
const yarn = manager("yarn", ["yarn", "install"], [/^\s*$/, /^yarn install v/, /^\[\d\/\d\] /, /^Done in /, /^info No lockfile found/, /^info Visit https:/, /^success Saved lockfile/]);

matrix("packages", [...npm, ...pnpm, ...yarn]);
