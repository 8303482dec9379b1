// Builds, then runs each bench/*.bench.ts in its own process against dist/,
// and merges their figures into bench/results/latest.json. A failed correctness
// check or a figure past its regression gate (bench/gates.ts) fails the run; the
// gates end the output as one table beside the last run's figures, also written
// as bench/results/gates.json (the previous one kept as gates.previous.json).
// Flags: --ci (short run), --strict (a missed timing target fails the run too);
// other arguments select bench files by substring, as in scripts/test.mjs.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

const args = process.argv.slice(2);
const ci = args.includes("--ci");
const strict = args.includes("--strict");
const filter = args.filter((a) => !a.startsWith("--"));
const started = Date.now();

const built = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

const files = readdirSync("bench")
  .filter((n) => n.endsWith(".bench.ts") && (filter.length === 0 || filter.some((f) => n.includes(f))))
  .sort()
  .map((n) => join("bench", n));

const cpu = cpus();
console.log(`rtk bench (${ci ? "ci" : "full"} run): node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "cpu"}`);

// rtk on PATH, as for a user whose hooks rewrite: a hook only inserts `rtk` where it runs.
const PATH = [resolve("bin"), process.env.PATH ?? "/usr/bin:/bin"].join(delimiter);
const tmp = mkdtempSync(join(tmpdir(), "rtk-bench-"));
const results = {};
let crashed = 0;
for (const file of files) {
  const out = join(tmp, "part.json");
  rmSync(out, { force: true });
  const run = spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", file, "--out", out, ...(ci ? ["--ci"] : [])], { stdio: "inherit", env: { ...process.env, PATH } });
  let areas = [];
  try {
    areas = JSON.parse(readFileSync(out, "utf8"));
  } catch {
    // The file crashed before writing results; its exit status says so below.
  }
  if (run.status !== 0) crashed++;
  results[file] = { status: run.status, areas };
}
rmSync(tmp, { recursive: true, force: true });

const all = Object.values(results).flatMap((r) => r.areas);
const checks = all.flatMap((a) => a.checks);
const count = (kind, pass) => checks.filter((c) => c.kind === kind && c.pass === pass).length;
const errors = all.filter((a) => a.error).length;
const summary = {
  timing: { met: count("timing", true), missed: count("timing", false) },
  correctness: { passed: count("correctness", true), failed: count("correctness", false) },
  gates: { passed: count("gate", true), failed: count("gate", false) },
  errors,
  crashed,
};

mkdirSync("bench/results", { recursive: true });
const seconds = (Date.now() - started) / 1000;
const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout?.trim() || null;
writeFileSync(
  "bench/results/latest.json",
  JSON.stringify(
    {
      mode: ci ? "ci" : "full",
      strict,
      startedAt: new Date(started).toISOString(),
      seconds,
      commit,
      machine: { node: process.version, platform: process.platform, arch: process.arch, cpus: cpu.length, cpuModel: cpu[0]?.model ?? null },
      summary,
      files: results,
    },
    null,
    2,
  ) + "\n",
);

// The gates, one table, beside the last run's figures (its gates.json).
const gatesPath = "bench/results/gates.json";
const previousPath = "bench/results/gates.previous.json";
let last = null;
try {
  last = JSON.parse(readFileSync(gatesPath, "utf8"));
  writeFileSync(previousPath, JSON.stringify(last, null, 2) + "\n");
} catch {
  // No earlier run here.
}
const gates = checks.filter((c) => c.kind === "gate");
const lastValue = new Map((last?.gates ?? []).map((g) => [g.name, g.value]));
const limitText = (t) => ("max" in t ? `≤ ${t.max}` : "min" in t ? `≥ ${t.min}` : `= ${t.equals}`);
const rows = [
  ["gate", "value", "last run", "gate", "result", "spread over repeated runs"],
  ...gates.map((g) => [
    g.name,
    `${g.value} ${g.unit}`.trim(),
    lastValue.has(g.name) ? `${lastValue.get(g.name)} ${g.unit}`.trim() : "—",
    `${limitText(g.target)} ${g.unit}`.trim(),
    g.pass ? "PASS" : "FAIL",
    g.spread ?? "",
  ]),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const line = (r) => "  " + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
console.log(`\nregression gates (${gates.length}; last run: ${last ? `${last.commit ?? "?"} at ${last.startedAt}` : "none here"})`);
console.log([line(rows[0]), "  " + widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n"));
writeFileSync(
  gatesPath,
  JSON.stringify(
    {
      mode: ci ? "ci" : "full",
      startedAt: new Date(started).toISOString(),
      commit,
      node: process.version,
      gates: gates.map(({ name, value, unit, target, pass, spread }) => ({ name, value, unit, target, pass, spread, last: lastValue.get(name) ?? null })),
    },
    null,
    2,
  ) + "\n",
);

const { timing, correctness } = summary;
console.log(
  `\nbench: timing targets ${timing.met} met, ${timing.missed} missed${strict ? "" : " (reported, not enforced; --strict enforces)"}; ` +
    `correctness checks ${correctness.passed} passed, ${correctness.failed} failed; regression gates ${summary.gates.passed} passed, ${summary.gates.failed} failed` +
    (errors || crashed ? `; areas with errors: ${errors}, bench files crashed: ${crashed}` : "") +
    `; ${seconds.toFixed(1)} s; figures in bench/results/latest.json`,
);
const failed = correctness.failed > 0 || summary.gates.failed > 0 || errors > 0 || crashed > 0 || (strict && timing.missed > 0);
process.exit(failed ? 1 : 0);
