// The OTLP export against a collector on 127.0.0.1 that decodes what arrives:
// names, units and attributes as docs/telemetry.md lists them, sums equal to
// `rtk gain --json` over the same records; a collector that is down, answers
// 500, is slow, or closes the connection loses no record and counts none twice;
// nothing is sent unless the switch is on.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { features } from "../../src/accounting/features.js";
import type { HookRecord, RunRecord } from "../../src/accounting/types.js";
import { METRICS } from "../../src/telemetry/metrics.js";
import { box, dbPath, gainJson, hook, reports, run, spoolLines } from "../accounting/store-support.js";
import { ensureBuilt } from "../support/build.js";
import { launch, launchSync } from "../support/launch.js";
import { collector, total, type Collector, type Received } from "../support/otlp.js";
import { removeSandboxes, type Sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

const NOW = Date.now();

function rec(over: Partial<RunRecord>, raw: string, out: string): RunRecord {
  const rf = features(raw);
  const of = features(out);
  return run({ rawBytes: rf[0]!, outBytes: of[0]!, rawFeatures: rf, outFeatures: of, ...over });
}

/** Runs on three routes in two projects, a fallback, an omission, a recall; hook decisions rewritten and kept. */
function records(): (RunRecord | HookRecord)[] {
  const status = "On branch main\n" + "  modified:   src/secret-project/file.ts\n".repeat(40);
  return [
    rec({ time: NOW - 5000, project: "/home/alice/secret-project", route: "git.status", command: "git status --token=hunter2", recallId: "abc1234", omitted: 12 }, status, "~ modified (40)\n"),
    rec({ time: NOW - 4000, project: "/home/alice/secret-project", route: "git.status" }, status, "* main\n"),
    rec({ time: NOW - 3000, project: "/home/alice/other", route: "ls", durationMs: 40 }, "a\nb\nc\n".repeat(50), "a b c\n"),
    { ...rec({ time: NOW - 2500, project: "/home/alice/other", route: "git.log", exitCode: 1 }, status, status), fellBack: true },
    rec({ time: NOW - 2000, project: "/home/alice/other", route: "ls" }, "x\n", "x and more than the raw\n"),
    run({ time: NOW - 1000, project: "/home/alice/secret-project", route: "recall", command: "rtk recall abc1234", rawBytes: 0, outBytes: 0, recallId: "abc1234" }),
    hook({ time: NOW - 4500, project: "/home/alice/secret-project", durationMs: 0.8 }),
    hook({ time: NOW - 4400, host: "codex", rewritten: null, verdict: "pass", reasons: ["pipeline-into"], durationMs: 1.5 }),
    hook({ time: NOW - 4300, host: "codex", rewritten: null, verdict: "deny", reasons: ["routed", "no-route"] }),
  ];
}

function world(c: Collector | null, extra: Record<string, string> = {}, config = ""): Sandbox {
  const b = box();
  Object.assign(b.env, { RTK_TELEMETRY: "1", OTEL_EXPORTER_OTLP_TIMEOUT: "2000", ...(c ? { OTEL_EXPORTER_OTLP_ENDPOINT: c.url } : {}), ...extra });
  // No background export from this test's own runs unless it asks for one.
  mkdirSync(join(b.config, "rtk"), { recursive: true });
  writeFileSync(join(b.config, "rtk", "config.toml"), `[telemetry]\ninterval_seconds = 3600\n${config}`);
  return b;
}

/** Async: the collector answers from this process's event loop, which a synchronous spawn would stop. */
function exportNow(b: Sandbox) {
  return launch(["gain", "--export", "otlp"], { cwd: b.cwd, env: b.env });
}

/** What a collector that keeps one delta per stream and window (start) makes of what it received: a resent batch counts once. */
function deduped(received: readonly Received[]): Received[] {
  const seen = new Set<string>();
  return received.map((r) => ({
    ...r,
    points: r.points.filter((p) => {
      const key = JSON.stringify([r.resource["service.instance.id"], p.metric, p.attributes, String(p.start)]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  }));
}

/** Every figure of `rtk gain --json` equals the collector's sums. */
function assertSums(b: Sandbox, got: readonly Received[]): void {
  const g = gainJson(b) as unknown as {
    totals: Record<string, number>;
    routes: { route: string; runs: number; savedTokens: number; recalls: number }[];
    hooks: { decisions: number; rewritten: number; keptByReason: { reason: string; decisions: number }[] };
  };
  const t = g.totals;
  assert.equal(total(got, "rtk.runs"), t["runs"]);
  assert.equal(total(got, "rtk.tokens.raw"), t["rawTokens"]);
  assert.equal(total(got, "rtk.tokens.printed"), t["outTokens"]);
  assert.equal(total(got, "rtk.tokens.saved"), t["savedTokens"]);
  assert.equal(total(got, "rtk.items.omitted"), t["omitted"]);
  assert.equal(total(got, "rtk.fallbacks"), t["fellBack"]);
  assert.equal(total(got, "rtk.recalls"), t["recalls"]);
  for (const r of g.routes) {
    assert.equal(total(got, "rtk.runs", { "rtk.route": r.route }), r.runs, r.route);
    assert.equal(total(got, "rtk.tokens.saved", { "rtk.route": r.route }), r.savedTokens, r.route);
    assert.equal(total(got, "rtk.recalls", { "rtk.route": r.route }), r.recalls, r.route);
  }
  assert.equal(total(got, "rtk.hook.decisions"), g.hooks.decisions);
  assert.equal(total(got, "rtk.hook.decisions", { "rtk.hook.outcome": "rewritten" }), g.hooks.rewritten);
  for (const k of g.hooks.keptByReason) assert.equal(total(got, "rtk.hook.decisions", { "rtk.hook.outcome": "kept", "rtk.hook.reason": k.reason }), k.decisions, k.reason);
  const durations = got.flatMap((r) => r.points).filter((p) => p.metric === "rtk.run.duration");
  assert.equal(
    durations.reduce((n, p) => n + p.count!, 0),
    t["runs"],
  );
}

describe("telemetry: what a collector receives", () => {
  let c: Collector;
  before(async () => (c = await collector()));
  after(() => c.close());

  for (const protocol of ["http/protobuf", "http/json"] as const) {
    test(`${protocol}: names, units, attributes, and sums equal to rtk gain --json`, async () => {
      c.accepted.length = 0;
      c.arrived.length = 0;
      const b = world(c, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_RESOURCE_ATTRIBUTES: "user.email=alice%40example.com,team=tools", OTEL_EXPORTER_OTLP_HEADERS: "x-team-key=k1" });
      spoolLines(b, records());
      const r = await exportNow(b);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /sent 9 records in 1 batches to http:\/\/127\.0\.0\.1:\d+\/v1\/metrics/);
      assert.ok(c.accepted.length > 0);
      assert.equal(c.accepted[0]!.contentType, protocol === "http/json" ? "application/json" : "application/x-protobuf");
      assert.equal(c.headers[0]!["x-team-key"], "k1");
      assertSums(b, c.accepted);
      const res = c.accepted[0]!.resource;
      assert.equal(res["service.name"], "rtk");
      assert.match(String(res["service.version"]), /^\d+\.\d+\.\d+/);
      assert.match(String(res["service.instance.id"]), /^[0-9a-f]{12}$/);
      assert.equal(res["user.email"], "alice@example.com");
      assert.equal(res["team"], "tools");
      assert.equal(c.accepted[0]!.scope, "rtk");
      const points = c.accepted.flatMap((x) => x.points);
      for (const spec of Object.values(METRICS)) {
        const mine = points.filter((p) => p.metric === spec.name);
        if (!mine.length) continue;
        for (const p of mine) {
          assert.equal(p.unit, spec.unit, spec.name);
          assert.equal(p.temporality, 1, `${spec.name} is a delta`);
          assert.equal(p.kind, spec.instrument === "histogram" ? "histogram" : "sum", spec.name);
          if (p.kind === "sum") assert.equal(p.monotonic, spec.instrument === "counter", spec.name);
          assert.deepEqual(Object.keys(p.attributes).sort(), [...spec.attributes].sort(), spec.name);
        }
      }
      for (const name of ["rtk.runs", "rtk.tokens.raw", "rtk.tokens.printed", "rtk.tokens.saved", "rtk.recalls", "rtk.fallbacks", "rtk.hook.decisions", "rtk.run.duration", "rtk.hook.duration"])
        assert.ok(
          points.some((p) => p.metric === name),
          name,
        );
      // The project is a hash of its path; no command, path or output in what was sent.
      const projects = new Set(points.map((p) => p.attributes["rtk.project"]).filter((v) => v !== undefined));
      assert.equal(projects.size, 3);
      for (const p of projects) assert.match(String(p), /^[0-9a-f]{16}$/);
      const everything = JSON.stringify(c.accepted, (_, v) => (typeof v === "bigint" ? String(v) : v));
      for (const secret of ["alice/", "secret-project", "hunter2", "git status", "modified:", "rtk recall"]) assert.ok(!everything.includes(secret), secret);
      // Hook latency: the two decisions that carried one.
      const lat = points.filter((p) => p.metric === "rtk.hook.duration");
      assert.equal(
        lat.reduce((n, p) => n + p.count!, 0),
        2,
      );
      assert.ok(Math.abs(lat.reduce((n, p) => n + p.value, 0) - 2.3) < 1e-9);
    });
  }

  test("a second export sends nothing new; records spooled since are sent once", async () => {
    c.accepted.length = 0;
    const b = world(c);
    spoolLines(b, records());
    assert.equal((await exportNow(b)).status, 0);
    const first = c.accepted.length;
    const again = await exportNow(b);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /sent 0 records in 0 batches/);
    assert.equal(c.accepted.length, first);
    spoolLines(b, [run({ time: Date.now(), project: "/p2", route: "ls", rawBytes: 800, outBytes: 100 })]);
    assert.match((await exportNow(b)).stdout, /sent 1 records in 1 batches/);
    assertSums(b, c.accepted);
    // Windows follow each other: the second batch starts where the first ended.
    const windows = [...new Set(c.accepted.flatMap((r) => r.points.map((p) => `${p.start}-${p.time}`)))].map((w) => w.split("-").map(BigInt));
    assert.equal(windows.length, 2);
    assert.equal(windows[1]![0], windows[0]![1]);
  });

  test("bounded batches: records go in several batches, each once", async () => {
    c.accepted.length = 0;
    const b = world(c, {}, "batch_records = 2\n");
    spoolLines(b, records());
    const r = await exportNow(b);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /sent 9 records in 3 batches/);
    assertSums(b, c.accepted);
  });

  test('project = "path" in the user\'s config: the path, masked as commands are', async () => {
    c.accepted.length = 0;
    const b = world(c, {}, 'project = "path"\n');
    spoolLines(b, [run({ project: "/w/api_key=abcdefghijklmnop1234", route: "ls" })]);
    assert.equal((await exportNow(b)).status, 0);
    const p = c.accepted.flatMap((r) => r.points).find((x) => x.metric === "rtk.runs")!;
    assert.equal(p.attributes["rtk.project"], "/w/api_key=****");
  });
});

describe("telemetry: a collector that fails loses nothing and counts nothing twice", () => {
  let c: Collector;
  before(async () => (c = await collector()));
  after(() => c.close());

  for (const how of ["500", "close", "slow"] as const) {
    test(`${how}: the export fails, the batch waits, and the next export sends it once`, async () => {
      c.accepted.length = 0;
      c.arrived.length = 0;
      c.slowMs = 5000;
      c.behave(how, "ok");
      const b = world(c, { OTEL_EXPORTER_OTLP_TIMEOUT: "700" });
      spoolLines(b, records());
      const failed = await exportNow(b);
      assert.equal(failed.status, 1, failed.stdout + failed.stderr + JSON.stringify(c.arrived.length));
      assert.match(failed.stderr, /then failed: .*; 9 records wait for the next export/);
      assert.equal(c.accepted.length, 0);
      // (Not doctor: with rtk on PATH, its sample runs are records too.)
      const state = JSON.parse(readFileSync(join(b.data, "rtk", "telemetry", "state.json"), "utf8"));
      assert.equal(state.failures, 1);
      assert.equal(state.lastSuccess, null);
      const ok = await exportNow(b);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /sent 9 records in 1 batches/, failed.stderr);
      assertSums(b, c.accepted);
      // What was sent again is the batch as it was: the same window.
      const windows = new Set(c.arrived.flatMap((r) => r.points.map((p) => `${p.start}-${p.time}`)));
      assert.equal(windows.size, 1);
    });
  }

  test("taken, but the answer lost: the same batch is sent again, the same delta in the same window", async () => {
    c.accepted.length = 0;
    // The exporter tries a lost answer again itself: every try of the first export is taken and its answer lost.
    c.behave(...Array<"ok-then-close">(12).fill("ok-then-close"), "ok");
    const b = world(c);
    spoolLines(b, records());
    const first = await exportNow(b);
    assert.equal(first.status, 1, first.stdout);
    const copies = c.accepted.length;
    assert.ok(copies >= 1);
    c.behave("ok");
    assert.equal((await exportNow(b)).status, 0);
    const key = (r: Received) => JSON.stringify(r.points.map((p) => [p.metric, p.attributes, String(p.start), String(p.time), p.value]));
    // Every copy is the same delta in the same window…
    assert.equal(new Set(c.accepted.map(key)).size, 1);
    assert.ok(c.accepted.length > copies);
    // …so a collector that keeps one delta per stream and window counts the records once.
    assertSums(b, deduped(c.accepted));
  });

  test("no collector at all: the export fails fast, the records wait", async () => {
    const b = world(null, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    spoolLines(b, records());
    const started = Date.now();
    const r = await exportNow(b);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /9 records wait/);
    assert.ok(Date.now() - started < 30_000);
    const state = JSON.parse(readFileSync(join(b.data, "rtk", "telemetry", "state.json"), "utf8"));
    assert.equal(state.failures, 1);
  });
});

describe("telemetry: off unless the user turns it on", () => {
  let c: Collector;
  before(async () => (c = await collector()));
  after(() => c.close());

  test("OTEL_* set, the switch off: runs and an export send nothing", async () => {
    const b = box();
    Object.assign(b.env, { OTEL_METRICS_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: c.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" });
    for (let i = 0; i < 3; i++) assert.equal((await launch(["ls"], { cwd: b.cwd, env: b.env })).status, 0);
    const r = await exportNow(b);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /telemetry is off/);
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal(c.arrived.length, 0);
    assert.equal(gainJson(b).totals.runs, 3);
    const d = JSON.parse(launchSync(["doctor", "--json"], { cwd: b.cwd, env: b.env }).stdout).telemetry;
    assert.equal(d.enabled, false);
  });

  test("the switch on but OTEL_METRICS_EXPORTER=none: nothing is sent, and doctor says why", async () => {
    const b = world(c, { OTEL_METRICS_EXPORTER: "none" });
    spoolLines(b, records());
    const r = await exportNow(b);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /OTEL_METRICS_EXPORTER=none/);
    assert.equal(c.arrived.length, 0);
    const d = JSON.parse(launchSync(["doctor", "--json"], { cwd: b.cwd, env: b.env }).stdout).telemetry;
    assert.match(d.problem, /OTEL_METRICS_EXPORTER=none names no otlp exporter/);
  });

  test("a trusted project's config cannot turn it on", async () => {
    const b = box();
    Object.assign(b.env, { OTEL_EXPORTER_OTLP_ENDPOINT: c.url });
    mkdirSync(join(b.cwd, ".rtk"));
    writeFileSync(join(b.cwd, ".rtk", "config.toml"), "[telemetry]\nenabled = true\n");
    const trusted = launchSync(["trust"], { cwd: b.cwd, env: b.env });
    assert.equal(trusted.status, 0, trusted.stderr);
    spoolLines(b, records());
    const r = await exportNow(b);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /telemetry is off/);
    assert.equal(c.arrived.length, 0);
  });
});

describe("telemetry: the run path", () => {
  let c: Collector;
  before(async () => (c = await collector()));
  after(() => c.close());

  test("a run starts one background export, which sends its record; doctor says when", async () => {
    const b = world(c);
    writeFileSync(join(b.config, "rtk", "config.toml"), "[telemetry]\ninterval_seconds = 3600\n");
    assert.equal((await launch(["ls"], { cwd: b.cwd, env: b.env })).status, 0);
    for (let i = 0; i < 100 && total(c.accepted, "rtk.runs") < 1; i++) await new Promise((res) => setTimeout(res, 100));
    assert.equal(total(c.accepted, "rtk.runs"), 1);
    // Within the interval, a second run starts none.
    assert.equal((await launch(["ls"], { cwd: b.cwd, env: b.env })).status, 0);
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal(total(c.accepted, "rtk.runs"), 1);
    const d = JSON.parse(launchSync(["doctor", "--json"], { cwd: b.cwd, env: b.env }).stdout).telemetry;
    assert.equal(d.enabled, true);
    assert.equal(d.url, `${c.url}/v1/metrics`);
    assert.ok(d.lastSuccess);
    const text = launchSync(["doctor"], { cwd: b.cwd, env: b.env }).stdout;
    assert.match(text, /telemetry: on, to http:\/\/127\.0\.0\.1:\d+\/v1\/metrics \(http\/protobuf\)\n {2}last batch: \d{4}-/);
  });
});

describe("row ids are never given twice (the export's cursor counts on it)", () => {
  test("a table the pruning emptied goes on from its largest id", async () => {
    const b = box();
    const old = Date.now() - 200 * 86_400_000;
    spoolLines(b, [run({ time: old }), run({ time: old }), hook({ time: old })]);
    gainJson(b);
    spoolLines(b, [run({ time: Date.now() }), hook({ time: Date.now() })]);
    gainJson(b);
    const db = reports().openDb(dbPath(b), { readOnly: true });
    try {
      // The first ingestion kept and then pruned ids 1–2 (runs) and 1 (hooks).
      assert.deepEqual(
        db.all("SELECT id FROM runs").map((r) => Number(r["id"])),
        [3],
      );
      assert.deepEqual(
        db.all("SELECT id FROM hooks").map((r) => Number(r["id"])),
        [2],
      );
    } finally {
      db.close();
    }
  });
});
