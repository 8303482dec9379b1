// Type-checks (the whole suite only), builds, then runs every test file with node's own runner (on Node 20,
// `node --test <dir>` finds no .ts files, so the files are listed here).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

// Arguments: parts of test file paths (none: every file), and node's own --test-… options, passed on
// (Node 24's --test-skip-pattern, say).
const nodeOptions = process.argv.slice(2).filter((a) => a.startsWith("--test-"));
const filter = process.argv.slice(2).filter((a) => !a.startsWith("--test-"));
// The real-tool matrix has its own script (`npm run test:tools`); it runs here only when named.
const MATRIX = join("test", "tools-real");
const files = [];
const collect = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) collect(p);
    else if (name.endsWith(".test.ts") && (filter.length === 0 ? !p.startsWith(MATRIX) : filter.some((f) => p.includes(f)))) files.push(p);
  }
};
collect("test");

// The whole suite type-checks first: a type error fails `npm test` as a failing test does
// (RTK_TEST_NO_TYPECHECK=1: a second run of the same tree on another Node skips it).
if (filter.length === 0 && !process.env.RTK_TEST_NO_TYPECHECK) {
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
// NODE_EXTRA_CA_CERTS makes every Node start read and parse a certificate bundle
// (~45 ms a start where it is set); only the tests that run npm against the
// registry need it, and they are handed it as RTK_TEST_NODE_EXTRA_CA_CERTS.
// The tests judge what the filters make of every output, a short one too (test/support/sandbox.ts).
const env = { ...process.env, PATH, RTK_TEST: "1", RTK_TEST_BUILT: "1", RTK_PASSTHROUGH_TOKENS: "0" };
if (env.NODE_EXTRA_CA_CERTS) {
  env.RTK_TEST_NODE_EXTRA_CA_CERTS = env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_EXTRA_CA_CERTS;
}
// A `*.stress.test.ts` file loads the machine on purpose: it runs after the others, alone.
// Each batch also writes TAP to a file, for one count of the whole suite at the end.
const stress = files.filter((f) => f.endsWith(".stress.test.ts"));
const rest = files.filter((f) => !stress.includes(f));
const tapDir = mkdtempSync(join(tmpdir(), "rtk-test-tap-"));
const total = { tests: 0, pass: 0, fail: 0, skipped: 0 };
// Each file's wall time, for the slowest ones listed at the end (what to look at when the suite grows).
const durations = [];
let status = 0;
for (const [i, [batch, n]] of [
  [rest, concurrency],
  [stress, "1"],
].entries()) {
  if (batch.length === 0) continue;
  const tap = join(tapDir, `${i}.tap`);
  const reporters = ["--test-reporter=spec", "--test-reporter-destination=stdout", "--test-reporter=tap", `--test-reporter-destination=${tap}`];
  const run = spawnSync(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${n}`, ...nodeOptions, ...reporters, ...batch], { stdio: "inherit", env });
  if (run.status !== 0) status = run.status ?? 1;
  const text = existsSync(tap) ? readFileSync(tap, "utf8") : "";
  for (const key of Object.keys(total)) total[key] += Number(new RegExp(`^# ${key} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  for (const m of text.matchAll(/^(?:not )?ok \d+ - (.+)\n  ---\n  duration_ms: ([\d.]+)/gm)) durations.push([m[1], Number(m[2])]);
}
rmSync(tapDir, { recursive: true, force: true });
if (files.length > 10 && durations.length > 0) {
  const slowest = durations.sort((a, b) => b[1] - a[1]).slice(0, 10);
  console.log(`\nslowest files: ${slowest.map(([f, ms]) => `${f.replace(/^.*?\btest\//, "test/")} ${(ms / 1000).toFixed(0)} s`).join(", ")}`);
}
if (stress.length > 0 && rest.length > 0) console.log(`\nwhole suite: ${total.tests} tests, ${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped`);
process.exit(status);
