// The real-tool matrix (test/tools-real/): builds, runs every family's cases
// against the real tools this machine has (two families at a time), then the
// whole table and its checks, `rtk gain` against the hand sum included.
// Arguments select families by substring, as in scripts/test.mjs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

const filter = process.argv.slice(2);
const dir = join("test", "tools-real");
const files = readdirSync(dir)
  .filter((n) => n.endsWith(".test.ts") && (filter.length === 0 || filter.some((f) => n.includes(f))))
  .sort()
  .map((n) => join(dir, n));

const started = Date.now();
const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

const matrixDir = mkdtempSync(join(tmpdir(), "rtk-tools-real-"));
const env = { ...process.env, PATH: [resolve("bin"), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter), RTK_TEST: "1", RTK_TEST_BUILT: "1", RTK_MATRIX_DIR: matrixDir };
const concurrency = process.env.RTK_TEST_CONCURRENCY || "2";
const families = spawnSync(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, "--test-reporter=spec", ...files], { stdio: "inherit", env });
const summary = spawnSync(process.execPath, ["--import", "tsx", "--test-reporter=spec", join(dir, "harness.ts")], { stdio: "inherit", env });
rmSync(matrixDir, { recursive: true, force: true });
console.log(`tools matrix: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(families.status || summary.status || 0);
