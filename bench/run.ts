// Runs one benchmark file in a fresh process (so one file's JIT and heap state
// cannot colour another's figures) and writes its areas as JSON for
// scripts/bench.mjs to merge: `node --import tsx bench/run.ts <file> --out <json> [--ci]`.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import mri from "mri";
import type { Bench } from "./harness/context.js";
import { Report } from "./harness/report.js";

const opts = mri(process.argv.slice(2), { boolean: ["ci"], string: ["out"] });
const file = opts._[0];
if (!file || !opts["out"]) {
  process.stderr.write("usage: node --import tsx bench/run.ts <file.bench.ts> --out <results.json> [--ci]\n");
  process.exit(2);
}

const report = new Report();
try {
  const bench = ((await import(pathToFileURL(resolve(String(file))).href)) as { default: Bench }).default;
  await bench({ ci: Boolean(opts["ci"]), report });
} catch (e) {
  // The areas finished so far are still worth keeping.
  process.stderr.write(`${String(file)} crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
}
writeFileSync(String(opts["out"]), JSON.stringify(report.areas));
