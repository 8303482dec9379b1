// Type-checks (the whole suite only), builds, then runs every test file with node's own runner (on Node 20,
// `node --test <dir>` finds no .ts files, so the files are listed here).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { delimiter, join, resolve } from "node:path";

const filter = process.argv.slice(2);
const files = [];
const collect = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) collect(p);
    else if (name.endsWith(".test.ts") && (filter.length === 0 || filter.some((f) => p.includes(f)))) files.push(p);
  }
};
collect("test");

// The whole suite type-checks first: a type error fails `npm test` as a failing test does.
if (filter.length === 0) {
  const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--noEmit"], { stdio: "inherit" });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

// rtk on PATH, as for a user whose hooks rewrite: a hook only inserts `rtk` where it runs.
// Tests of the other case set a PATH of their own.
const PATH = [resolve("bin"), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter);
// Test files spend most of their time waiting on the processes they start: one more file than
// there are cores (node's default is one fewer) halves the suite's time on two cores.
// RTK_TEST_CONCURRENCY sets another number.
const concurrency = process.env.RTK_TEST_CONCURRENCY || String(availableParallelism() + 1);
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, "--test-reporter=spec", "--test-reporter-destination=stdout", ...files], {
  stdio: "inherit",
  env: { ...process.env, PATH, RTK_TEST: "1", RTK_TEST_BUILT: "1" },
});
process.exit(run.status ?? 1);
