// Builds, then runs every test file with node's own runner (on Node 20,
// `node --test <dir>` finds no .ts files, so the files are listed here).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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

const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", "--test-reporter-destination=stdout", ...files], {
  stdio: "inherit",
  env: { ...process.env, RTK_TEST: "1", RTK_TEST_BUILT: "1" },
});
process.exit(run.status ?? 1);
