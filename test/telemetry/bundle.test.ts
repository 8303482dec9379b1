// The OpenTelemetry SDK is in dist/rtk-otel.cjs alone: the hook, run, CLI and
// report bundles, which every command loads, carry none of it.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { repoRoot } from "../support/corpus.js";

before(() => ensureBuilt());

test("only the export's bundle holds the OpenTelemetry SDK", () => {
  const dist = join(repoRoot, "dist");
  assert.ok(existsSync(join(dist, "rtk-otel.cjs")));
  assert.match(readFileSync(join(dist, "rtk-otel.cjs"), "utf8"), /MeterProvider|exportMetricsServiceRequest|v1\/metrics/);
  for (const bundle of ["rtk-hot.cjs", "rtk-run.cjs", "rtk-main.cjs", "rtk-report.cjs", "rtk.cjs", "lib.cjs"]) {
    const text = readFileSync(join(dist, bundle), "utf8");
    assert.ok(!/@opentelemetry|MeterProvider|OTLPMetricExporter/.test(text), bundle);
  }
  assert.match(readFileSync(join(dist, "THIRD-PARTY-LICENSES.txt"), "utf8"), /@opentelemetry\/sdk-metrics@2\.12\.0 — Apache-2\.0/);
});

test("docs/telemetry.md lists every metric with its unit", () => {
  const doc = readFileSync(join(repoRoot, "docs", "telemetry.md"), "utf8");
  return import("../../src/telemetry/metrics.js").then(({ METRICS }) => {
    for (const m of Object.values(METRICS)) {
      const row = doc.split("\n").find((l) => l.startsWith(`| \`${m.name}\` `));
      assert.ok(row?.includes(`\`${m.unit}\``), m.name);
    }
  });
});
